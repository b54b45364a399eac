// Home below the fold, loaded as the shopper scrolls towards it: the link entries (GET /api/link/), a teaser
// for the about page, and the FAQ blocks.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { DrinkImage } from '../../../components/DrinkImage';
import ui from '../../../components/ui.module.css';
import { truncate } from '../../../lib/format';
import { SITE_NAME } from '../../../lib/meta';
import { fetchSiteList, selectLinks } from '../../../state/site/siteListsSlice';
import { selectSiteState } from '../../../state/site/siteSlice';
import { faqBlocks } from '../faq';
import styles from './HomeMore.module.css';
import { Link } from '../../../components/Link';
import { selectHeldDeliveryTerms } from '../../../lib/delivery';

const isExternal = (link: string) => /^https?:\/\//.test(link);

export function HomeMore() {
  const dispatch = useAppDispatch();
  const { info, about } = useAppSelector(selectSiteState);
  const links = useAppSelector(selectLinks);
  const delivery = useAppSelector(selectHeldDeliveryTerms);
  const faq = faqBlocks(info?.email, info?.name || SITE_NAME, delivery);

  useEffect(() => {
    void dispatch(fetchSiteList('links'));
  }, [dispatch]);

  const story = info?.des || about[0]?.des;
  const cover = info?.cover_des;

  return (
    <>
      {links.length > 0 && (
        <section className={styles.section} aria-labelledby="links-title">
          <h2 id="links-title" className={ui.sectionTitle}>
            Discover more
          </h2>
          <ul className={styles.links} data-testid="home-links">
            {links.map((entry) => {
              const body = (
                <>
                  {entry.image[0] && <DrinkImage name={entry.image[0]} alt="" width={320} height={200} className={styles.linkImage} />}
                  <span className={styles.linkName}>{entry.name}</span>
                  {entry.des && <span className={styles.linkDes}>{entry.des}</span>}
                </>
              );
              return (
                <li key={entry._id}>
                  {isExternal(entry.link) ? (
                    <a className={styles.link} href={entry.link} rel="noopener noreferrer" target="_blank">
                      {body}
                    </a>
                  ) : (
                    <Link className={styles.link} to={entry.link || paths.home.to()}>
                      {body}
                    </Link>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <section className={`${styles.section} ${styles.about}`} aria-labelledby="about-teaser-title">
        <h2 id="about-teaser-title" className={ui.sectionTitle}>
          About {info?.name || SITE_NAME}
        </h2>
        {cover && <p className={styles.aboutLead}>{cover}</p>}
        <p className={styles.aboutText}>
          {story ? truncate(story, 280) : 'An independent UK soft-drink brand: fruity, fizzy drinks packed by the case and delivered to your door.'}
        </p>
        <Link className={styles.more} to={paths.about.to()}>
          Read our story
        </Link>
      </section>

      <section className={styles.section} aria-labelledby="faq-title">
        <h2 id="faq-title" className={ui.sectionTitle}>
          Frequently asked questions
        </h2>
        <div className={styles.faq} data-testid="faq">
          {faq.map((item) => (
            <details key={item.topic} className={styles.question}>
              <summary>{item.question}</summary>
              <p>{item.answer}</p>
            </details>
          ))}
        </div>
        <p>
          Still wondering? <Link to={paths.contact.to()}>Contact us</Link>.
        </p>
      </section>
    </>
  );
}

export default HomeMore;
