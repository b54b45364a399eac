// /new/uk/products: placeholder until the admin issue for it lands.
import { AdminPlaceholder } from '../AdminPlaceholder';

export default function ProductsScreen() {
  return (
    <AdminPlaceholder
      title="Products"
      holds={[
        'Every product: name, descriptions, price, pack label, stock, discount and images',
        'Create, update and delete',
      ]}
    />
  );
}
