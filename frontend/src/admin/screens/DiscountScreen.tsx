// /new/uk/discount: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function DiscountScreen() {
  return (
    <AdminPlaceholder
      title="Discount codes"
      holds={[
        'Every code with its rate and use count, with Update and Delete',
        'A create and update form',
      ]}
    />
  );
}
