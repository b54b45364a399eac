// /new/uk/categories: the admin's categories list and its create/update form.
import { EntryScreen } from './EntryScreen';

export default function CategoriesScreen() {
  return <EntryScreen kind="category" title="Categories" noun="category" />;
}
