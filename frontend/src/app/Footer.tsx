// The page footer: the shop's links, every policy (GET /api/policy/), and its contact details, opening hours
// and social links (only those set) once the site info is held; the company's registered name, number and
// office and the VAT number where set; and the mail-list sign-up form.
import { Suspense, useEffect } from 'react';
import { useAppDispatch, useAppSelector } from './hooks';
import { paths } from './paths';
import { lazyPage } from '../lib/chunks';
import { SITE_NAME } from '../lib/meta';
import { OPENING_HOURS_TEXT } from '../lib/structuredData';
import { companyLine } from '../lib/trader';
import { fetchSiteList, selectPolicies } from '../state/site/siteListsSlice';
import { selectSiteInfo } from '../state/site/siteSlice';
import styles from './Footer.module.css';
import { Link } from '../components/Link';

const SOCIAL_LABELS = [
  ['facebook', 'Facebook'],
  ['instagram', 'Instagram'],
  ['x', 'X'],
  ['tiktok', 'TikTok'],
  ['youtube', 'YouTube'],
] as const;

// The mail-list sign-up and its slice are a chunk of their own, loaded with the footer, never on first paint.
const SignUpForm = lazyPage(() => import('../features/subscription/components/SignUpForm'));

export function Footer() {
  const dispatch = useAppDispatch();
  const info = useAppSelector(selectSiteInfo);
  const policies = useAppSelector(selectPolicies);
  const social = SOCIAL_LABELS.filter(([key]) => typeof info?.Social?.[key] === 'string' && info.Social[key]);

  useEffect(() => {
    // Skipped by the loader when the list is already held.
    void dispatch(fetchSiteList('policies'));
  }, [dispatch]);

  return (
    <footer className={styles.footer}>
      <div className={styles.stripe} aria-hidden="true" />
      <div className={styles.grid}>
        <section aria-labelledby="footer-brand">
          <h2 id="footer-brand" className={styles.brand}>
            {info?.name || SITE_NAME}
          </h2>
          <p className={styles.muted}>{info?.des || 'Refreshing soft drinks, delivered across the UK.'}</p>
        </section>
        <nav aria-labelledby="footer-shop">
          <h2 id="footer-shop" className={styles.heading}>
            Shop
          </h2>
          <ul className={styles.list}>
            <li>
              <Link to={paths.shop.to()}>All drinks</Link>
            </li>
            <li>
              <Link to={paths.reviews.to()}>Customer reviews</Link>
            </li>
            <li>
              <Link to={paths.checkout.to()}>Checkout</Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-help">
          <h2 id="footer-help" className={styles.heading}>
            Help
          </h2>
          <ul className={styles.list}>
            <li>
              <Link to={paths.about.to()}>About us</Link>
            </li>
            <li>
              <Link to={paths.contact.to()}>Contact us</Link>
            </li>
            <li>
              <Link to={paths.login.to()}>Your account</Link>
            </li>
          </ul>
        </nav>
        {policies.length > 0 && (
          <nav aria-labelledby="footer-policies">
            <h2 id="footer-policies" className={styles.heading}>
              Policies
            </h2>
            <ul className={styles.list}>
              {policies.map((policy) => (
                <li key={policy._id}>
                  <Link to={paths.policy.to(policy._id)}>{policy.name}</Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className={styles.heading}>
            Get in touch
          </h2>
          <ul className={styles.list}>
            {info?.email && (
              <li>
                <a href={`mailto:${info.email}`}>{info.email}</a>
              </li>
            )}
            {info?.phone && (
              <li>
                <a href={`tel:${info.phone.replace(/\s+/g, '')}`} data-testid="footer-phone">
                  {info.phone}
                </a>
              </li>
            )}
            {info?.address && <li className={styles.muted}>{info.address}</li>}
            <li className={styles.muted}>Open {info?.open || OPENING_HOURS_TEXT}</li>
            {info?.close && <li className={styles.muted}>Closed {info.close}</li>}
            <li className={styles.muted}>We reply within 24 hours, Monday to Friday.</li>
          </ul>
          {social.length > 0 && (
            <ul className={styles.list} aria-label="Follow us">
              {social.map(([key, label]) => (
                <li key={key}>
                  <a href={info?.Social?.[key]} rel="noopener noreferrer" target="_blank">
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </section>
        <Suspense fallback={null}>
          <SignUpForm />
        </Suspense>
      </div>
      <p className={styles.legal} data-testid="footer-legal">
        © {new Date().getFullYear()} {info?.name || SITE_NAME}
        {companyLine(info) && <> · {companyLine(info)}</>}
        {info?.vatNumber && <> · VAT number {info.vatNumber}</>}
      </p>
    </footer>
  );
}

export default Footer;
