// Shop: every drink, 12 a page, with 'Load more drinks' while the paging rule gives a next page. The order
// and filters (?sort=&category=&inStock=&minPrice=&maxPrice=) live in the address; a category page names
// its category in the heading and the title.
import { useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router';
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
import { fetchDrinksPage, fetchShopCategories, selectShop, shopReloadRequested } from '../shopSlice';
import { LoadMore } from '../../../components/LoadMore';
import { choiceFromParams, choiceToSearch, sameChoice, SORT_LABELS, type ShopChoice } from '../browse';
import { ShopControls } from './ShopControls';

const SHOP_DESCRIPTION = 'Shop our full range of soft drinks by the case: fruit sodas, colas and sparkling drinks, with UK-wide delivery.';

/** What the list shows, in words, for the announcement after a change. */
function describe(choice: ShopChoice, categoryName: string | null): string {
  const parts = [categoryName ?? 'All drinks', `sorted by ${SORT_LABELS[choice.sort].toLowerCase()}`];
  if (choice.inStock) parts.push('in stock only');
  if (choice.minPrice) parts.push(`from £${choice.minPrice}`);
  if (choice.maxPrice) parts.push(`up to £${choice.maxPrice}`);
  return parts.join(', ');
}
import { Link } from '../../../components/Link';
import { selectHeldDeliveryTerms } from '../../../lib/delivery';

export function ShopPage() {
  const delivery = useAppSelector(selectHeldDeliveryTerms);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const params = useQuery();
  const shop = useAppSelector(selectShop);
  const { products, status, error, reload, nextPage, pageNumber, categories } = shop;
  // The address's choice, kept stable while the address is: the effects below compare it by value.
  const choiceSearch = choiceToSearch(choiceFromParams(params));
  const choice = useMemo(() => choiceFromParams(new URLSearchParams(choiceSearch)), [choiceSearch]);
  const category = choice.category ? categories.find((c) => c._id === choice.category) ?? null : null;

  usePageMeta(category ? `${category.name} | Shop drinks` : 'Shop drinks', category?.des || SHOP_DESCRIPTION);

  useEffect(() => {
    void dispatch(fetchShopCategories());
  }, [dispatch]);

  // A new visit, a new choice or a retry starts the list again; a failed 'load more' retries its page.
  const stale = status === 'idle' || !sameChoice(shop.choice, choice);
  useEffect(() => {
    if (stale) void dispatch(fetchDrinksPage({ page: FIRST_PAGE, ...choice }));
  }, [dispatch, stale, choice]);
  useEffect(() => {
    if (!reload) return;
    const retryPage = products.length > 0 ? pageNumber + 1 : FIRST_PAGE;
    void dispatch(fetchDrinksPage({ page: retryPage, ...choice }));
  }, [dispatch, reload, products.length, pageNumber, choice]);

  const loadingMore = status === 'loading' && products.length > 0;
  const filtered = choice.inStock || choice.minPrice !== null || choice.maxPrice !== null;
  const choose = (next: ShopChoice) => void navigate({ search: choiceToSearch(next) });

  return (
    <div className={ui.container}>
      <PageHeading
        title={category ? category.name : 'Our drinks'}
        lead={category ? category.des || undefined : 'Every flavour we make, packed by the case and delivered across the UK.'}
        crumbs={
          category
            ? [{ label: 'Home', to: paths.home.to() }, { label: 'Shop', to: paths.shop.to() }, { label: category.name }]
            : [{ label: 'Home', to: paths.home.to() }, { label: 'Shop' }]
        }
      />
      <div className={ui.tools}>
        <SearchForm />
        {choice.category && (
          <Link to={paths.shop.to()} className={ui.secondary}>
            Show all drinks
          </Link>
        )}
      </div>
      <ShopControls choice={choice} categories={categories} onChange={choose} />
      <p className="visually-hidden" role="status">
        {status === 'loaded' && !loadingMore ? `${describe(choice, category?.name ?? null)}.` : ''}
      </p>
      <StatusView
        status={status}
        error={error}
        onRetry={() => dispatch(shopReloadRequested())}
        isEmpty={products.length === 0}
        loadingLabel="Loading drinks"
        errorTitle="We could not load the drinks"
        empty={
          filtered ? (
            <EmptyView title="No drinks match these filters">
              <p>Try a wider price range, or include the drinks that are sold out.</p>
              <Link to={paths.shop.to()}>See every drink</Link>
            </EmptyView>
          ) : (
            <EmptyView title="No drinks here yet">
              <p>This shelf is empty for now.</p>
              {choice.category && <Link to={paths.shop.to()}>See every drink</Link>}
            </EmptyView>
          )
        }
      >
        {/* The cards' names are H3s: this keeps the outline from skipping a level after the page's H1. */}
        <h2 id="drinks-heading" className="visually-hidden">
          The drinks
        </h2>
        <ul className={ui.grid} data-testid="drinks-list" aria-labelledby="drinks-heading">
          {products.map((product, index) => (
            <li key={product._id}>
              <ProductCard delivery={delivery} product={product} eager={index < 2} />
            </li>
          ))}
        </ul>
        <LoadMore nextPage={nextPage} loading={loadingMore} failed={status === 'failed'} label="Load more drinks" onLoad={(page) => void dispatch(fetchDrinksPage({ page, ...choice }))} />
      </StatusView>
    </div>
  );
}

export default ShopPage;
