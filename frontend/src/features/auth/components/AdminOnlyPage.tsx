// What someone who is not an admin sees under /new/uk/.
import { Placeholder } from '../../../components/Placeholder';

export default function AdminOnlyPage({ isLoggedIn }: { isLoggedIn: boolean }) {
  return (
    <Placeholder
      title="Admins only"
      description="This part of the shop is for the shop's staff."
      holds={[isLoggedIn ? 'Your account is not an admin account.' : 'Log in with an admin account to continue.']}
    />
  );
}
