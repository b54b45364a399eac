// /new/uk/subscription: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function SubscriptionScreen() {
  return (
    <AdminPlaceholder
      title="Subscriptions"
      holds={[
        'Subscription lists and their subscribers',
        'Delete a subscriber',
      ]}
    />
  );
}
