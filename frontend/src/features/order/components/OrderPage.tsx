// /myorder/{id}: placeholder until the orders issue lands.
import { useParams } from 'react-router';
import { Placeholder } from '../../../components/Placeholder';

export default function OrderPage() {
  const { id = '' } = useParams();
  return (
    <Placeholder
      title="Your order"
      description={`The details and status of order ${id}.`}
      holds={['The drinks ordered, with quantities and prices', 'Subtotal, discount, shipping and total', 'Delivery details and status']}
    />
  );
}
