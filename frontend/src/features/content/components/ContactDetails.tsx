// The shop's contact details and opening hours (GET /api/contact/); the spec's hours when none are set.
import type { ContactInfo } from '../../../types/catalog';
import { OPENING_HOURS_TEXT } from '../../../lib/structuredData';
import styles from './Content.module.css';

export function ContactDetails({ info }: { info: ContactInfo | null }) {
  return (
    <dl className={styles.details}>
      {info?.email && (
        <>
          <dt>E-mail</dt>
          <dd>
            <a href={`mailto:${info.email}`}>{info.email}</a>
          </dd>
        </>
      )}
      {info?.phone && (
        <>
          <dt>Phone</dt>
          <dd>
            <a href={`tel:${info.phone.replace(/\s+/g, '')}`}>{info.phone}</a>
          </dd>
        </>
      )}
      {info?.address && (
        <>
          <dt>Address</dt>
          <dd>{info.address}</dd>
        </>
      )}
      <dt>Open</dt>
      <dd>{info?.open || OPENING_HOURS_TEXT}</dd>
      {info?.close && (
        <>
          <dt>Closed</dt>
          <dd>{info.close}</dd>
        </>
      )}
    </dl>
  );
}
