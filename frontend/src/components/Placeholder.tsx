// A screen whose real content another issue delivers: it says what will be here and keeps the route alive.
import { Link } from 'react-router';
import { paths } from '../app/paths';
import { usePageMeta } from '../lib/meta';
import { PageHeading, type Crumb } from './PageHeading';
import styles from './Placeholder.module.css';
import ui from './ui.module.css';

interface PlaceholderProps {
  title: string;
  description: string;
  /** What the finished screen will hold. */
  holds: string[];
  crumbs?: Crumb[];
  /** Inside a wrapper that already has the page's h1 and container. */
  nested?: boolean;
}

export function Placeholder({ title, description, holds, crumbs, nested = false }: PlaceholderProps) {
  usePageMeta(title, description);
  const body = (
    <>
      {nested ? (
        <div className={styles.nestedHead}>
          <h2 className={ui.sectionTitle}>{title}</h2>
          <p>{description}</p>
        </div>
      ) : (
        <PageHeading title={title} lead={description} crumbs={crumbs ?? [{ label: 'Home', to: paths.home.to() }, { label: title }]} />
      )}
      <section className={styles.box} aria-label="Coming soon">
        <p>
          <strong>This page is on its way.</strong> It will hold:
        </p>
        <ul className={styles.list}>
          {holds.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p className={styles.links}>
          <Link className={ui.primary} to={paths.shop.to()}>
            Shop drinks
          </Link>
          <Link className={ui.secondary} to={paths.home.to()}>
            Home
          </Link>
        </p>
      </section>
    </>
  );
  return nested ? body : <div className={ui.container}>{body}</div>;
}
