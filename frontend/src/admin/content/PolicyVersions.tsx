// The policy editor's preview and versions: the text being edited as the shop will show it (headings,
// links), and every kept version of the policy, newest first, each readable as it was. A save keeps a new
// version and sets the policy's "last updated"; an order names the version of the terms it was sold under.
import { useCallback, useState } from 'react';
import { Paragraphs } from '../../components/Paragraphs';
import { formatDate } from '../../lib/dates';
import type { AppThunk } from '../../lib/thunk';
import type { PolicyVersion, PolicyVersionSummary } from '../../types/catalog';
import { useAppDispatch } from '../../app/hooks';
import { errorMessage } from '../../lib/api';
import ui from '../../components/ui.module.css';
import { Part, useCall } from '../useCall';
import styles from './AdminContent.module.css';

const fetchVersions =
  (id: string): AppThunk<Promise<PolicyVersionSummary[]>> =>
  (_dispatch, _getState, { api }) =>
    api.get('/policy/versions/{id}', { params: { id } });

const fetchVersion =
  (id: string, version: number): AppThunk<Promise<PolicyVersion>> =>
  (_dispatch, _getState, { api }) =>
    api.get('/policy/versions/{id}/{version}', { params: { id, version: String(version) } });

/** The draft as the shop will show it. */
export function PolicyPreview({ name, text }: { name: string; text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <p>
        A line starting “## ” is a heading; [words](/path) is a link. Write {'{deliveryFee}'} and {'{freeDeliveryFrom}'} to name the delivery
        terms the checkout charges: the shop fills them in.
      </p>
      <button type="button" className={ui.secondary} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide the preview' : 'Preview'}
      </button>
      {open && (
        <article className={styles.preview} aria-label={`Preview of ${name || 'the policy'}`} data-testid="policy-preview">
          <h4>{name}</h4>
          <Paragraphs text={text} />
        </article>
      )}
    </div>
  );
}

/** A saved policy's kept versions, each openable. */
export function PolicyVersions({ id }: { id: string }) {
  const dispatch = useAppDispatch();
  const call = useCallback(() => fetchVersions(id), [id]);
  const [state, retry] = useCall(call);
  const [shown, setShown] = useState<PolicyVersion | null>(null);
  const [error, setError] = useState<string | null>(null);
  const open = (version: number) => {
    setError(null);
    dispatch(fetchVersion(id, version)).then(setShown, (e: unknown) => setError(errorMessage(e)));
  };
  return (
    <section aria-labelledby={`versions-${id}`} data-testid="policy-versions">
      <h4 id={`versions-${id}`}>Versions</h4>
      <Part state={state} retry={retry} what="the versions">
        {(versions) =>
          versions.length === 0 ? (
            <p>No version kept yet: the shop shows the standard text, kept as a version when first sold under or saved.</p>
          ) : (
            <ul className={styles.list}>
              {versions.map((version) => (
                <li key={version.version} className={styles.item}>
                  <span className={styles.itemText}>
                    <span className={styles.itemName}>Version {version.version}</span>
                    <span className={styles.itemDes}>
                      {formatDate(version.savedAt)} · {version.source === 'admin' ? 'saved by an admin' : 'the standard text'}
                    </span>
                  </span>
                  <button type="button" className={ui.secondary} onClick={() => open(version.version)}>
                    Read version {version.version}
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Part>
      {error && (
        <p className={styles.alert} role="alert">
          {error}
        </p>
      )}
      {shown && (
        <article className={styles.preview} aria-label={`Version ${shown.version}`} data-testid="policy-version-text">
          <h4>
            Version {shown.version}: {shown.name} ({formatDate(shown.savedAt)})
          </h4>
          <Paragraphs text={shown.des} />
        </article>
      )}
    </section>
  );
}
