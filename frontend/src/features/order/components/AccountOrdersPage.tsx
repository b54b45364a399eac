// /account/order: the customer's order history inside the account wrapper (the route table nests it there),
// guest orders placed with the same address included, and the offer to keep an order's details on the profile.
import { usePageMeta } from '../../../lib/meta';
import { OrderHistory } from './OrderHistory';
import { DetailsOffer } from './DetailsOffer';

export default function AccountOrdersPage() {
  usePageMeta('Your orders', 'Every order you have placed with us and what you have spent.');
  return (
    <>
      <DetailsOffer />
      <OrderHistory />
    </>
  );
}
