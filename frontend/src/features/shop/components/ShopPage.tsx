// Shop: every drink, 12 a page, with 'Load more drinks' while the paging rule gives a next page. Reads an
// optional ?category= filter.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { PageHeading } from '../../../components/PageHeading';
import { ProductCard } from '../../../components/ProductCard';
import { SearchForm } from '../../../components/SearchForm';
import { EmptyView, StatusView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { FIRST_PAGE } from '../../../lib/paging';
import { usePageMeta } from '../../../lib/meta';
import { useQuery } from '../../../lib/useQuery';
import { fetchDrinksPage, selectShop, shopReloadRequested } from '../shopSlice';
import { LoadMore } from '../../../components/LoadMore';
import { Link } from '../../../components/Link';

export function ShopPage() {
  const dispatch = useAppDispatch();
  const params = useQuery();
  const category = params.get('category') || null;
  const shop = useAppSelector(selectShop);
  const { products, status, error, reload, nextPage, pageNumber } = shop;

  usePageMeta(
    'Shop drinks',
    'Shop our full range of soft drinks by the case: fruit sodas, colas and sparkling drinks, with UK-wide delivery.',
  );

  // A new visit, a new category or a retry starts the list again; a failed 'load more' retries its page.
  const stale = status === 'idle' || shop.category !== category;
  useEffect(() => {
    if (stale) void dispatch(fetchDrinksPage({ page: FIRST_PAGE, category }));
  }, [dispatch, stale, category]);
  useEffect(() => {
    if (!reload) return;
    const retryPage = products.length > 0 ? pageNumber + 1 : FIRST_PAGE;
    void dispatch(fetchDrinksPage({ page: retryPage, category }));
  }, [dispatch, reload, products.length, pageNumber, category]);

  const loadingMore = status === 'loading' && products.length > 0;

  return (
    <div className={ui.container}>
      <PageHeading
        title="Our drinks"
        lead="Every flavour we make, packed by the case and delivered across the UK."
        crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Shop' }]}
      />
      <div className={ui.tools}>
        <SearchForm />
        {category && (
          <Link to={paths.shop.to()} className={ui.secondary}>
            Show all drinks
          </Link>
        )}
      </div>
      <StatusView
        status={status}
        error={error}
        onRetry={() => dispatch(shopReloadRequested())}
        isEmpty={products.length === 0}
        loadingLabel="Loading drinks"
        errorTitle="We could not load the drinks"
        empty={
          <EmptyView title="No drinks here yet">
            <p>This shelf is empty for now.</p>
            {category && <Link to={paths.shop.to()}>See every drink</Link>}
          </EmptyView>
        }
      >
        {/* The cards' names are H3s: this keeps the outline from skipping a level after the page's H1. */}
        <h2 id="drinks-heading" className="visually-hidden">
          The drinks
        </h2>
        <ul className={ui.grid} data-testid="drinks-list" aria-labelledby="drinks-heading">
          {products.map((product, index) => (
            <li key={product._id}>
              <ProductCard product={product} eager={index < 2} />
            </li>
          ))}
        </ul>
        <LoadMore nextPage={nextPage} loading={loadingMore} failed={status === 'failed'} label="Load more drinks" onLoad={(page) => void dispatch(fetchDrinksPage({ page, category }))} />
      </StatusView>
    </div>
  );
}

export default ShopPage;
