// /account/order: the customer's order history (features/order) inside the account wrapper.
import { usePageMeta } from '../../../lib/meta';
import { OrderHistory } from '../../order/components/OrderHistory';

export default function AccountOrdersPage() {
  usePageMeta('Your orders', 'Every order you have placed with us and what you have spent.');
  return <OrderHistory />;
}
