// /new/uk/profile: the admin's own profile (name, phone, address), the same form customers use, and their
// passkeys: the way in that no flood of code requests can block.
import ui from '../../components/ui.module.css';
import { Passkeys } from '../../components/Passkeys';
import { ProfileForm } from '../../components/ProfileForm';

export default function ProfileScreen() {
  return (
    <section aria-labelledby="admin-profile-title">
      <h2 id="admin-profile-title" className={ui.sectionTitle}>
        Your profile
      </h2>
      <ProfileForm />
      <Passkeys />
    </section>
  );
}
