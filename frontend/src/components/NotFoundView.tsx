// The page for something that is not there (an unknown path, an unknown drink): no 'Try again', since
// trying again would find nothing either. Outside StatusView, which the home page's first script carries.
import { useEffect, type ReactNode } from 'react';
import styles from './StatusView.module.css';

/**
 * `<meta name="robots" content="noindex">` while the calling page is shown: pages that say something is
 * not there (an unknown path, an unknown drink) stay out of search results.
 */
function useNoIndex(): void {
  useEffect(() => {
    const tag = document.head.appendChild(document.createElement('meta'));
    tag.setAttribute('name', 'robots');
    tag.setAttribute('content', 'noindex');
    return () => tag.remove();
  }, []);
}

/**
 * A page's whole content when what the address names does not exist: its h1, what to do instead (links
 * back), and `noindex` while it shows.
 */
export function NotFoundView({ title, message, children }: { title: string; message: string; children: ReactNode }) {
  useNoIndex();
  return (
    <div className={styles.panel} data-testid="not-found">
      <h1 className={styles.title} tabIndex={-1}>
        {title}
      </h1>
      <p className={styles.detail}>{message}</p>
      <ul className={styles.links}>{children}</ul>
    </div>
  );
}
