// An admin screen another issue delivers: what it will hold.
import { Placeholder } from '../components/Placeholder';

export function AdminPlaceholder({ title, holds }: { title: string; holds: string[] }) {
  return <Placeholder nested title={title} description={`Admin: ${title.toLowerCase()}.`} holds={holds} />;
}
