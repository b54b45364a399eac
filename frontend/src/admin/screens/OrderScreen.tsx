// /new/uk/order: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function OrderScreen() {
  return (
    <AdminPlaceholder
      title="Orders"
      holds={[
        'Every order, searchable and paged',
        'Update status, or delete',
      ]}
    />
  );
}
