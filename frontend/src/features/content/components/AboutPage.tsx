// /about/{product}-about-us: placeholder until the content issue lands.
import { Placeholder } from '../../../components/Placeholder';

export default function AboutPage() {
  return (
    <Placeholder
      title="About us"
      description="Who we are and the story behind our drinks."
      holds={['Our story and who we are', 'Frequently asked questions']}
    />
  );
}
