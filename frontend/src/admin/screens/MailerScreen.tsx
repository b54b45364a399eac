// /new/uk/mailer: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function MailerScreen() {
  return (
    <AdminPlaceholder
      title="Mailer"
      holds={[
        'Step 1: choose recipient lists, with a ‘Special selection’ toggle',
        'Step 2: a subject and sections (title, description, link, image URL)',
        'Show letter, Cancel and Send Mail after ‘Are you sure?’',
      ]}
    />
  );
}
