// /new/uk/about: the admin's about text list and its create/update form.
import { EntryScreen } from './EntryScreen';

export default function AboutScreen() {
  return <EntryScreen kind="about" title="About text" noun="about text" />;
}
