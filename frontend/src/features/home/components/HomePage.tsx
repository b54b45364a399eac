// Home: the hero (its words fixed, so the first screen never shifts), featured drinks (FeaturedDrinks.tsx)
// and categories from GET /api/home/home/uk/, then, below the fold and loaded as the shopper scrolls, link
// entries, an about teaser with the site info's name, cover text and description, and the FAQ. The page's title and meta tags
// and its structured search data (organisation, local business with opening hours, breadcrumbs, FAQ) follow
// in their own small chunk right after the first render (HomeHead.tsx).
import { Suspense, useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { LoadingView } from '../../../components/LoadingView';
import ui from '../../../components/ui.module.css';
import { WhenNear } from '../../../components/WhenNear';
import { lazyPage } from '../../../lib/chunks';
import { fetchHome, selectHome } from '../homeSlice';
import styles from './HomePage.module.css';
import { Link } from '../../../components/Link';

// The drink cards need the home call's answer anyway: their script loads beside it (FeaturedDrinks.tsx).
const FeaturedDrinks = lazyPage(() => import('./FeaturedDrinks'));
const Categories = lazyPage(() => import('./Categories'));
const HomeMore = lazyPage(() => import('./HomeMore'));
const HomeHead = lazyPage(() => import('./HomeHead'));

const PERKS = ['Delivered across the UK', 'Packed by the case', 'A reply within 24 hours'];

export function HomePage() {
  const dispatch = useAppDispatch();
  const { categories, status, reload } = useAppSelector(selectHome);

  useEffect(() => {
    if (status === 'idle' || reload) void dispatch(fetchHome());
  }, [dispatch, status, reload]);

  return (
    <>
      <Suspense fallback={null}>
        <HomeHead />
      </Suspense>
      <section className={styles.hero} aria-labelledby="hero-title">
        <div className={styles.heroInner}>
          <div>
            <p className={styles.eyebrow}>Soft drinks · UK delivery</p>
            <h1 id="hero-title" className={styles.title}>
              Crack one open.
              <span className={styles.titleAccent}>Taste the fizz.</span>
            </h1>
            <p className={styles.lead}>
              Refreshing soft drinks, packed by the case and delivered to your door anywhere in the UK.
            </p>
            <div className={styles.ctas}>
              <Link className={styles.ctaPrimary} to={paths.shop.to()}>
                Shop drinks
              </Link>
              <Link className={styles.ctaSecondary} to={paths.about.to()}>
                Our story
              </Link>
            </div>
          </div>
          <div className={styles.cans} aria-hidden="true">
            <span className={styles.can} />
            <span className={styles.can} />
            <span className={styles.can} />
          </div>
        </div>
      </section>

      <div className={ui.container}>
        <ul className={styles.perks}>
          {PERKS.map((perk) => (
            <li key={perk} className={styles.perk}>
              {perk}
            </li>
          ))}
        </ul>

        <section className={styles.section} aria-labelledby="featured-title">
          <div className={styles.sectionHead}>
            <h2 id="featured-title" className={ui.sectionTitle}>
              Featured drinks
            </h2>
            <Link className={styles.more} to={paths.shop.to()}>
              See all drinks
            </Link>
          </div>
          <Suspense fallback={<LoadingView label="Loading featured drinks" />}>
            <FeaturedDrinks />
          </Suspense>
        </section>

        {categories.length > 0 && (
          // Below the fold: drawn (and its script fetched) as the shopper scrolls towards it.
          <WhenNear>
            <Suspense fallback={null}>
              <Categories categories={categories} />
            </Suspense>
          </WhenNear>
        )}

        <WhenNear>
          <Suspense fallback={null}>
            <HomeMore />
          </Suspense>
        </WhenNear>
      </div>
    </>
  );
}

export default HomePage;
