// /contact/{product}-contact/: the contact form, the promise of a reply within 24 hours on business days,
// and the shop's contact details and opening hours from the site info (held once by the site slice).
import { useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { JsonLd } from '../../../components/JsonLd';
import { PageHeading } from '../../../components/PageHeading';
import ui from '../../../components/ui.module.css';
import { usePageMeta } from '../../../lib/meta';
import { breadcrumbs, graph, localBusiness } from '../../../lib/structuredData';
import { selectSiteInfo } from '../../site/siteSlice';
import { ContactDetails } from './ContactDetails';
import { ContactForm } from './ContactForm';
import styles from './Content.module.css';

export default function ContactPage() {
  const info = useAppSelector(selectSiteInfo);

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
          <ContactDetails info={info} />
        </aside>
      </div>
    </div>
  );
}
