// A page's heading block: breadcrumbs, the h1 and an optional lead line.
import type { ReactNode } from 'react';
import styles from './PageHeading.module.css';
import { Link } from './Link';

export interface Crumb {
  label: string;
  to?: string;
}

export function PageHeading({ title, lead, crumbs = [] }: { title: string; lead?: ReactNode; crumbs?: Crumb[] }) {
  return (
    <div className={styles.head}>
      {crumbs.length > 0 && (
        <nav aria-label="Breadcrumb">
          <ol className={styles.crumbs}>
            {crumbs.map((crumb) => (
              <li key={crumb.label}>{crumb.to ? <Link to={crumb.to}>{crumb.label}</Link> : <span aria-current="page">{crumb.label}</span>}</li>
            ))}
          </ol>
        </nav>
      )}
      {title && (
        <h1 className={styles.title} tabIndex={-1}>
          {title}
        </h1>
      )}
      {lead && <p className={styles.lead}>{lead}</p>}
    </div>
  );
}
