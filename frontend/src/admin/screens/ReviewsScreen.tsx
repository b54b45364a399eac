// /new/uk/reviews: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function ReviewsScreen() {
  return (
    <AdminPlaceholder
      title="Reviews"
      holds={[
        'Customer comments, newest first',
        'Delete a review',
      ]}
    />
  );
}
