// The product page with the basket's purchase controls and the drink's reviews slotted in: composed here
// because features do not import each other. Loaded lazily with the product page; the reviews (their slice,
// list and form) are a further chunk fetched only when the shopper nears them, below the fold, so the
// product page's first render carries none of it.
import { Suspense } from 'react';
import { useAppSelector } from '../hooks';
import { AddToBasket } from '../../features/cart/components/AddToBasket';
import { ProductPage, type PurchaseSlotProps } from '../../features/product/components/ProductPage';
import { selectSiteInfo } from '../../state/site/siteSlice';
import { LoadingView } from '../../components/StatusView';
import { WhenNear } from '../../components/WhenNear';
import { lazyPage } from '../../lib/chunks';
import type { Product } from '../../types/catalog';

const DrinkReviews = lazyPage(() => import('../../features/reviews/components/DrinkReviews'));

function purchase({ product, initialQty }: PurchaseSlotProps) {
  return <AddToBasket key={product._id} product={product} initialQty={initialQty} />;
}

function below(product: Product) {
  return (
    <WhenNear key={product._id}>
      {/* Its own boundary: the page above stays on screen while the reviews' chunk arrives. */}
      <Suspense fallback={<LoadingView label="Loading the reviews" cards={2} />}>
        <DrinkReviews drink={{ _id: product._id, name: product.name }} />
      </Suspense>
    </WhenNear>
  );
}

export default function ProductRoute() {
  // The producer named beside the food information is the trader in the site info (loaded by the footer).
  const info = useAppSelector(selectSiteInfo);
  const producer = info?.name ? { name: info.name, address: info.address } : null;
  // The age the shop asks for its age-restricted drinks (unknown until the site info arrives).
  return <ProductPage purchase={purchase} below={below} producer={producer} shopAge={info ? info.minimumAge : undefined} />;
}
