// /new/uk/profile: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function ProfileScreen() {
  return (
    <AdminPlaceholder
      title="Profile"
      holds={[
        'Your admin profile and the site info: name, contact, opening hours and social links',
      ]}
    />
  );
}
