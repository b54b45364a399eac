// /{product}/policies/{id}: one policy; the last path segment is its id. With `?version=N` (an order's link
// to the terms it was sold under), that kept version's words, dated, with a link to today's.
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
import { useQuery } from '../../../lib/useQuery';
import { fetchPolicy, fetchPolicyVersion, policyReloadRequested, selectPolicy, selectPolicyVersion, versionKey } from '../contentSlice';
import styles from './Content.module.css';
import { Paragraphs } from '../../../components/Paragraphs';
import { Link } from '../../../components/Link';

/** `?version=3` as a number, or null for today's words. */
function versionOf(value: string | null): number | null {
  const version = Number(value);
  return value !== null && Number.isInteger(version) && version > 0 ? version : null;
}

/** One kept version of a policy: its words as they were, dated, with a link to the current ones. */
function KeptVersion({ id, version }: { id: string; version: number }) {
  const dispatch = useAppDispatch();
  const held = useAppSelector(selectPolicyVersion);
  const key = versionKey({ id, version });
  const kept = held.key === key ? held.version : null;
  const title = kept ? kept.name : 'Our policies';
  usePageMeta(kept ? `${kept.name} (version ${version})` : 'Our policies', kept?.des || "The shop's policies.", 'article');
  useEffect(() => {
    if (held.key !== key) void dispatch(fetchPolicyVersion({ id, version }));
  }, [dispatch, held.key, key, id, version]);
  return (
    <div className={ui.container}>
      <PageHeading title={title} crumbs={[{ label: 'Home', to: paths.home.to() }, { label: title }]} />
      <div className={styles.prose} style={{ paddingBottom: 'var(--space-8)' }}>
        <StatusView
          status={held.key === key ? held.status : 'idle'}
          error={held.error}
          onRetry={() => void dispatch(fetchPolicyVersion({ id, version }))}
          isEmpty={!kept}
          loadingLabel="Loading the policy"
          errorTitle="We could not load this version"
          empty={null}
        >
          {kept && (
            <article data-testid="policy-version">
              <p className={styles.note} role="note">
                Version {kept.version}, in force from {formatDate(kept.savedAt)}: the words an order placed then was sold
                under. <Link to={paths.policy.to(id)}>Read the current version</Link>.
              </p>
              <Paragraphs text={kept.des} />
            </article>
          )}
        </StatusView>
      </div>
    </div>
  );
}

export default function PolicyPage() {
  const { id = '' } = useParams();
  const version = versionOf(useQuery().get('version'));
  return version === null ? <CurrentPolicy id={id} /> : <KeptVersion id={id} version={version} />;
}

function CurrentPolicy({ id }: { id: string }) {
  const dispatch = useAppDispatch();
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
