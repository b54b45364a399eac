// /about/{product}-about-us: the about texts and who-we-are texts (GET /api/home_uk/palestine/about/
// show_result/), held by the site slice so they are fetched once, and the shop's contact details.
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { DrinkImage } from '../../../components/DrinkImage';
import { JsonLd } from '../../../components/JsonLd';
import { PageHeading } from '../../../components/PageHeading';
import { EmptyView, StatusView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { SITE_NAME, usePageMeta } from '../../../lib/meta';
import { breadcrumbs, graph, organization } from '../../../lib/structuredData';
import type { Entry } from '../../../types/catalog';
import { fetchSitePart, selectSiteState } from '../../../state/site/siteSlice';
import styles from './Content.module.css';
import { Paragraphs } from '../../../components/Paragraphs';
import { Link } from '../../../components/Link';

function EntryBlock({ entry }: { entry: Entry }) {
  const image = entry.image?.[0];
  return (
    <article className={styles.entry}>
      <h3 className={styles.entryTitle}>{entry.name}</h3>
      {image && <DrinkImage name={image} alt="" width={480} height={320} className={styles.entryImage} />}
      <Paragraphs text={entry.des} />
    </article>
  );
}

export default function AboutPage() {
  const dispatch = useAppDispatch();
  const site = useAppSelector(selectSiteState);
  const { status, error } = site.loading.about;
  const first = site.about[0];

  usePageMeta(
    'About us',
    first?.des || `The story behind ${site.info?.name || SITE_NAME}: who we are and why we make our soft drinks.`,
  );

  // After a failure the loader no longer skips: asking again is the reload.
  const retry = () => void dispatch(fetchSitePart('about'));

  return (
    <div className={ui.container}>
      <JsonLd
        data={graph(
          organization(site.info, window.location.origin),
          breadcrumbs(
            [
              { name: 'Home', path: paths.home.to() },
              { name: 'About us', path: paths.about.to() },
            ],
            window.location.origin,
          ),
        )}
      />
      <PageHeading
        title="About us"
        lead={site.info?.cover_des}
        crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'About us' }]}
      />
      <div className={styles.layout}>
        <div className={styles.prose}>
          <StatusView
            status={status}
            error={error}
            onRetry={retry}
            isEmpty={site.about.length === 0 && site.whoweare.length === 0}
            loadingLabel="Loading our story"
            errorTitle="We could not load our story"
            empty={
              <EmptyView title="Our story is on its way">
                <p>
                  Meanwhile, <Link to={paths.shop.to()}>browse our drinks</Link>.
                </p>
              </EmptyView>
            }
          >
            {site.about.length > 0 && (
              <section aria-labelledby="about-story">
                <h2 id="about-story" className={ui.sectionTitle}>
                  Our story
                </h2>
                {site.about.map((entry) => (
                  <EntryBlock key={entry._id} entry={entry} />
                ))}
              </section>
            )}
            {site.whoweare.length > 0 && (
              <section aria-labelledby="about-who">
                <h2 id="about-who" className={ui.sectionTitle}>
                  Who we are
                </h2>
                {site.whoweare.map((entry) => (
                  <EntryBlock key={entry._id} entry={entry} />
                ))}
              </section>
            )}
          </StatusView>
        </div>
        <aside className={styles.card} aria-labelledby="about-contact">
          <h2 id="about-contact">Talk to us</h2>
          {site.info?.des && <p>{site.info.des}</p>}
          <p>
            Questions about an order or our drinks? <Link to={paths.contact.to()}>Contact us</Link>: we reply within
            24 hours on business days (Monday to Friday).
          </p>
        </aside>
      </div>
    </div>
  );
}
