// Search results for /{product}/uk?search=text, with 'Show more results' while there is a next page. A
// misspelt search shows the drinks of the server's correction with 'Did you mean …?' linking to it.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { PageHeading } from '../../../components/PageHeading';
import { ProductCard } from '../../../components/ProductCard';
import { SearchForm } from '../../../components/SearchForm';
import { EmptyView, StatusView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { truncate } from '../../../lib/format';
import { usePageMeta } from '../../../lib/meta';
import { useQuery } from '../../../lib/useQuery';
import { FIRST_PAGE } from '../../../lib/paging';
import { fetchSearch, searchReloadRequested, selectSearch } from '../searchSlice';
import { LoadMore } from '../../../components/LoadMore';
import styles from './SearchPage.module.css';
import { Link } from '../../../components/Link';
import { selectHeldDeliveryTerms } from '../../../lib/delivery';

export function SearchPage() {
  const delivery = useAppSelector(selectHeldDeliveryTerms);
  const dispatch = useAppDispatch();
  const params = useQuery();
  const query = (params.get('search') ?? '').trim();
  const search = useAppSelector(selectSearch);
  const { products, status, error, reload, nextPage, pageNumber, didYouMean } = search;

  usePageMeta(query ? `Search: ${truncate(query)}` : 'Search drinks', 'Search our soft drinks by name, flavour or pack size.');

  const stale = query !== '' && (status === 'idle' || search.query !== query);
  useEffect(() => {
    if (stale) void dispatch(fetchSearch({ query, page: FIRST_PAGE }));
  }, [dispatch, stale, query]);
  useEffect(() => {
    if (!reload || !query) return;
    void dispatch(fetchSearch({ query, page: products.length > 0 ? pageNumber + 1 : FIRST_PAGE }));
  }, [dispatch, reload, query, products.length, pageNumber]);

  const loadingMore = status === 'loading' && products.length > 0;

  return (
    <div className={ui.container}>
      <PageHeading
        title={query ? `Results for “${truncate(query)}”` : 'Search drinks'}
        crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Search' }]}
      />
      <div className={ui.tools}>
        <SearchForm key={query} initial={query} />
      </div>
      {query === '' ? (
        <EmptyView title="What are you thirsty for?">
          <p>Search by name, flavour or pack size.</p>
        </EmptyView>
      ) : (
        <StatusView
          status={search.query === query ? status : 'idle'}
          error={error}
          onRetry={() => dispatch(searchReloadRequested())}
          isEmpty={products.length === 0}
          loadingLabel="Searching"
          errorTitle="The search did not work"
          empty={
            <EmptyView title={`No drinks match “${truncate(query)}”`}>
              <p>Try another word, or browse the whole range.</p>
              <Link to={paths.shop.to()}>See every drink</Link>
            </EmptyView>
          }
        >
          {didYouMean && search.query === query && (
            <p className={styles.didYouMean} role="status">
              Did you mean <Link to={paths.search.to(didYouMean)}>{didYouMean}</Link>? Showing drinks for “{truncate(didYouMean)}”.
            </p>
          )}
          <h2 id="results-heading" className="visually-hidden">
            Matching drinks
          </h2>
          <ul className={ui.grid} data-testid="search-results" aria-labelledby="results-heading">
            {products.map((product) => (
              <li key={product._id}>
                <ProductCard delivery={delivery} product={product} />
              </li>
            ))}
          </ul>
          <LoadMore nextPage={nextPage} loading={loadingMore} failed={status === 'failed'} label="Show more results" onLoad={(page) => void dispatch(fetchSearch({ query, page }))} />
        </StatusView>
      )}
    </div>
  );
}

export default SearchPage;
