// /new/uk/show: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function ShowScreen() {
  return (
    <AdminPlaceholder
      title="Images"
      holds={[
        'A grid of uploaded images (200px high previews)',
        'Copy an image’s name, or delete it',
      ]}
    />
  );
}
