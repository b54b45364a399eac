// /contact/{product}-contact/: the contact form, the promise of a reply within 24 hours on business days,
// and the shop's contact details and opening hours from GET /api/contact/ (fetched on entry unless held).
// The shop's name and description for search engines still come from the site info the frame holds.
import { useEffect, useMemo } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { JsonLd } from '../../../components/JsonLd';
import { PageHeading } from '../../../components/PageHeading';
import ui from '../../../components/ui.module.css';
import { usePageMeta } from '../../../lib/meta';
import { breadcrumbs, graph, localBusiness } from '../../../lib/structuredData';
import { selectSiteInfo } from '../../../state/site/siteSlice';
import { fetchContact, selectContact } from '../contentSlice';
import { ContactDetails } from './ContactDetails';
import { ContactForm } from './ContactForm';
import styles from './Content.module.css';

export default function ContactPage() {
  const dispatch = useAppDispatch();
  const site = useAppSelector(selectSiteInfo);
  const contact = useAppSelector(selectContact);
  useEffect(() => {
    void dispatch(fetchContact());
  }, [dispatch]);
  // The contact call's fields win over the site info's: it is the spec's source for them.
  const info = useMemo(() => (site || contact.details ? { _id: null, ...site, ...contact.details } : null), [site, contact.details]);

  usePageMeta(
    'Contact us',
    'Questions about our drinks or your order? Send us a message: we reply within 24 hours on business days, Monday to Friday.',
  );

  return (
    <div className={ui.container}>
      <JsonLd
        data={graph(
          localBusiness(info, window.location.origin),
          breadcrumbs(
            [
              { name: 'Home', path: paths.home.to() },
              { name: 'Contact us', path: paths.contact.to() },
            ],
            window.location.origin,
          ),
        )}
      />
      <PageHeading
        title="Contact us"
        lead="We reply within 24 hours on business days (Monday to Friday)."
        crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Contact us' }]}
      />
      <div className={styles.layout}>
        <ContactForm />
        <aside className={styles.card} aria-labelledby="contact-details">
          <h2 id="contact-details">Our details</h2>
          <ContactDetails info={contact.details} />
          {contact.status === 'failed' && (
            <p role="alert">
              We could not load our contact details: {contact.error}{' '}
              <button type="button" className={ui.secondary} onClick={() => void dispatch(fetchContact())}>
                Try again
              </button>
            </p>
          )}
        </aside>
      </div>
    </div>
  );
}
