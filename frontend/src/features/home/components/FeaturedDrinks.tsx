// Home's featured drinks: their cards once GET /api/home/home/uk/ has answered (HomePage asks), the error
// with a retry, or the empty state. It loads as a small chunk of its own beside that call, so the first
// page's script does not carry the drink cards; until both are in, the loading state shows.
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { ProductCard } from '../../../components/ProductCard';
import { EmptyView, StatusView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { homeReloadRequested, selectHome } from '../homeSlice';
import { selectHeldDeliveryTerms } from '../../../lib/delivery';

export default function FeaturedDrinks() {
  const delivery = useAppSelector(selectHeldDeliveryTerms);
  const dispatch = useAppDispatch();
  const { products, status, error } = useAppSelector(selectHome);
  return (
    <StatusView
      status={status}
      error={error}
      onRetry={() => dispatch(homeReloadRequested())}
      isEmpty={products.length === 0}
      loadingLabel="Loading featured drinks"
      errorTitle="We could not load our drinks"
      empty={
        <EmptyView title="New drinks are on the way">
          <p>Check back soon, or browse the whole shop.</p>
        </EmptyView>
      }
    >
      <ul className={ui.grid} data-testid="featured-drinks">
        {products.map((product) => (
          <li key={product._id}>
            <ProductCard delivery={delivery} product={product} />
          </li>
        ))}
      </ul>
    </StatusView>
  );
}
