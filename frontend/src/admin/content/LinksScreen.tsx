// /new/uk/links: the admin's link entries list and its create/update form.
import { EntryScreen } from './EntryScreen';

export default function LinksScreen() {
  return <EntryScreen kind="link" title="Link entries" noun="link" />;
}
