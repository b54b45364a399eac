// /new/uk/about: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function AboutScreen() {
  return (
    <AdminPlaceholder
      title="About text"
      holds={[
        'The about-us records: create, update and delete',
      ]}
    />
  );
}
