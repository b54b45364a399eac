// /new/uk/result: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function ResultScreen() {
  return (
    <AdminPlaceholder
      title="Sales results"
      holds={[
        'Monthly sales: products sold, orders and payments in pounds',
        'The customer e-mail list',
      ]}
    />
  );
}
