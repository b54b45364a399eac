// Any path the app has no page for (the real 404, in place of the spec's Home for unknown paths):
// says so, links back to the home page and the shop, and keeps out of search results. The build writes it
// to dist/404.html, which the gateway and CloudFront serve with status 404 (app/knownPaths.json).
import { Link } from '../../components/Link';
import { NotFoundView } from '../../components/NotFoundView';
import ui from '../../components/ui.module.css';
import { usePageMeta } from '../../lib/meta';
import { paths } from '../paths';

export const NOT_FOUND_TITLE = 'Page not found';

export function NotFoundPage() {
  usePageMeta(NOT_FOUND_TITLE, 'There is no page at this address.');
  return (
    <div className={ui.container} style={{ paddingBlock: 'var(--space-7)' }}>
      <NotFoundView title={NOT_FOUND_TITLE} message="There is no page at this address: the link may be old or mistyped.">
        <li>
          <Link className={ui.primary} to={paths.home.to()}>
            Go to the home page
          </Link>
        </li>
        <li>
          <Link className={ui.secondary} to={paths.shop.to()}>
            Browse all drinks
          </Link>
        </li>
      </NotFoundView>
    </div>
  );
}

export default NotFoundPage;
