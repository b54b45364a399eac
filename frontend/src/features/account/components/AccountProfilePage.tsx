// /account/profile: view and edit your name, phone and delivery address; your passkeys; download your data
// or delete the account.
import ui from '../../../components/ui.module.css';
import { usePageMeta } from '../../../lib/meta';
import { DataRights } from './DataRights';
import { Passkeys } from '../../../components/Passkeys';
import { ProfileForm } from '../../../components/ProfileForm';

export default function AccountProfilePage() {
  usePageMeta('Your profile', 'Your name, e-mail and delivery details.');
  return (
    <section aria-labelledby="profile-title">
      <h2 id="profile-title" className={ui.sectionTitle}>
        Your profile
      </h2>
      <ProfileForm />
      <Passkeys />
      <DataRights />
    </section>
  );
}
