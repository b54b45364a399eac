// /new/uk/whoweare: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function WhoweareScreen() {
  return (
    <AdminPlaceholder
      title="Who we are"
      holds={[
        'The who-we-are records: create, update and delete',
      ]}
    />
  );
}
