// /{product}/login: placeholder until the login issue lands.
import { Placeholder } from '../../../components/Placeholder';

export default function LoginPage() {
  return (
    <Placeholder
      title="Log in"
      description="Log in with a one-time code sent to your e-mail to see your orders and profile."
      holds={['Your e-mail address, then the 6-digit code we e-mail you', 'A link back to the basket once you are in']}
    />
  );
}
