// The product page with the basket's purchase controls slotted in: composed here because features do not
// import each other. Loaded lazily with the product page.
import { AddToBasket } from '../../features/cart/components/AddToBasket';
import { ProductPage, type PurchaseSlotProps } from '../../features/product/components/ProductPage';

function purchase({ product, initialQty }: PurchaseSlotProps) {
  return <AddToBasket key={product._id} product={product} initialQty={initialQty} />;
}

export default function ProductRoute() {
  return <ProductPage purchase={purchase} />;
}
