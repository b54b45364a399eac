// /new/uk/policies: the admin's policies list and its create/update form.
import { EntryScreen } from './EntryScreen';

export default function PoliciesScreen() {
  return <EntryScreen kind="policy" title="Policies" noun="policy" labels={{ name: 'Title', des: 'Text' }} />;
}
