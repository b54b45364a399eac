// /new/uk/: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function AdminHome() {
  return (
    <AdminPlaceholder
      title="Dashboard"
      holds={[
        'A summary of today’s orders, stock and reviews',
        'Links to every admin screen',
      ]}
    />
  );
}
