// /contact/{product}-contact/: placeholder until the content issue lands.
import { Placeholder } from '../../../components/Placeholder';

export default function ContactPage() {
  return (
    <Placeholder
      title="Contact us"
      description="Get in touch: we reply within 24 hours on business days, Monday to Friday."
      holds={['Our e-mail, phone, address and opening hours', 'A message form', 'Frequently asked questions']}
    />
  );
}
