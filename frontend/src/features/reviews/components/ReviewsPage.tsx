// /{product}/review: placeholder until the reviews issue lands.
import { Placeholder } from '../../../components/Placeholder';

export default function ReviewsPage() {
  return (
    <Placeholder
      title="Customer Reviews"
      description="What our customers say about our drinks: ratings, comments and photos."
      holds={['The average rating out of 5, based on every review', 'A bar per star count', "A 'Write a review' form and the review list"]}
    />
  );
}
