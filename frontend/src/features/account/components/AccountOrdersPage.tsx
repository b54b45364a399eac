// /account/order: placeholder until the orders issue lands.
import { Placeholder } from '../../../components/Placeholder';

export default function AccountOrdersPage() {
  return (
    <Placeholder
      nested
      title="Your orders"
      description="Every order you have placed with us and what you have spent."
      holds={['Your orders, newest first, with their status', 'Your order total']}
    />
  );
}
