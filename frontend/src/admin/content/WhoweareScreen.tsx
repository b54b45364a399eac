// /new/uk/whoweare: the admin's who we are list and its create/update form.
import { EntryScreen } from './EntryScreen';

export default function WhoweareScreen() {
  return <EntryScreen kind="whoweare" title="Who we are" noun="who-we-are text" />;
}
