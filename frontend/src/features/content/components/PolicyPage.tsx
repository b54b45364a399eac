// /{product}/policies/{id}: one policy; the last path segment is its id.
import { useEffect } from 'react';
import { useLocation, useParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { JsonLd } from '../../../components/JsonLd';
import { PageHeading } from '../../../components/PageHeading';
import { EmptyView, StatusView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { formatDate } from '../../../lib/dates';
import { usePageMeta } from '../../../lib/meta';
import { breadcrumbs, graph } from '../../../lib/structuredData';
import { fetchPolicy, policyReloadRequested, selectPolicy } from '../contentSlice';
import styles from './Content.module.css';
import { Paragraphs } from './Paragraphs';
import { Link } from '../../../components/Link';

export default function PolicyPage() {
  const dispatch = useAppDispatch();
  const { id = '' } = useParams();
  const policy = useAppSelector(selectPolicy);
  const entry = policy.id === id ? policy.entry : null;
  const title = entry?.name ?? 'Our policies';

  usePageMeta(title, entry?.des || "The shop's policies: delivery, returns and privacy.", 'article');

  const stale = id !== '' && policy.id !== id;
  useEffect(() => {
    if (stale) void dispatch(fetchPolicy(id));
  }, [dispatch, stale, id]);
  useEffect(() => {
    if (policy.reload && id) void dispatch(fetchPolicy(id));
  }, [dispatch, policy.reload, id]);
  // A link to a part (…/returns#model-cancellation-form) lands on it once the text is in.
  const { hash } = useLocation();
  useEffect(() => {
    if (entry && hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView?.();
  }, [entry, hash]);

  return (
    <div className={ui.container}>
      {entry && (
        <JsonLd
          data={graph(
            breadcrumbs(
              [
                { name: 'Home', path: paths.home.to() },
                { name: entry.name, path: paths.policy.to(id) },
              ],
              window.location.origin,
            ),
          )}
        />
      )}
      <PageHeading title={title} crumbs={[{ label: 'Home', to: paths.home.to() }, { label: title }]} />
      <div className={styles.prose} style={{ paddingBottom: 'var(--space-8)' }}>
        <StatusView
          status={stale ? 'idle' : policy.status}
          error={policy.error}
          onRetry={() => dispatch(policyReloadRequested())}
          isEmpty={!entry}
          loadingLabel="Loading the policy"
          errorTitle="We could not load this policy"
          empty={
            <EmptyView title="This policy is not available">
              <p>
                <Link to={paths.home.to()}>Back to the shop</Link>
              </p>
            </EmptyView>
          }
        >
          {entry && (
            <article data-testid="policy">
              <Paragraphs text={entry.des} />
              {entry.updatedAt && <p className={styles.note}>Last updated {formatDate(entry.updatedAt)}</p>}
            </article>
          )}
        </StatusView>
      </div>
    </div>
  );
}
