// /account/profile: placeholder until the account issue lands.
import { Placeholder } from '../../../components/Placeholder';

export default function AccountProfilePage() {
  return (
    <Placeholder
      nested
      title="Your profile"
      description="Your name, e-mail and delivery details."
      holds={['Your name and e-mail', 'Your saved delivery address and phone']}
    />
  );
}
