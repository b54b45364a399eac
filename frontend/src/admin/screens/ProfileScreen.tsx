// /new/uk/profile: the admin's own profile (name, phone, address), the same form customers use.
import ui from '../../components/ui.module.css';
import { ProfileForm } from '../../features/account/components/ProfileForm';

export default function ProfileScreen() {
  return (
    <section aria-labelledby="admin-profile-title">
      <h2 id="admin-profile-title" className={ui.sectionTitle}>
        Your profile
      </h2>
      <ProfileForm />
    </section>
  );
}
