// The key of an order link (`?key=`, as the order's e-mails and the checkout's answer carry it): it opens the
// order's page and receipt without logging in, so every link between them carries it on.
import { useQuery } from '../../lib/useQuery';

export const useOrderKey = (): string | null => useQuery().get('key');
