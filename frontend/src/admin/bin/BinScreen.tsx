// /new/uk/bin: the drinks, discount codes and reviews deleted in the last 30 days, newest first in
// one table each, with when each leaves for good and a Restore button that brings it back as it was. After a
// restore the screen that lists that kind reloads next time it is shown.
import { useCallback, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { paths } from '../../app/paths';
import { Link } from '../../components/Link';
import ui from '../../components/ui.module.css';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import styles from '../adminScreens.module.css';
import { TableScroll } from '../table/TableScroll';
import { BIN_KINDS, fetchBin, restoreFromBin, type Bin, type BinEntry, type BinKind } from './binData';
import { codesReloadRequested } from '../codes/codesSlice';
import { BIN_DAYS } from '../confirm';
import { adminProductsReloadRequested } from '../products/adminProductsSlice';
import { adminReviewsReloadRequested } from '../reviews/adminReviewsSlice';
import { Part, useCall } from '../useCall';
import { WriteOutcome } from '../WriteOutcome';

/** Where each kind lives when it is not in the bin. */
const SCREEN: Record<BinKind, string> = { drinks: 'products', codes: 'discount', reviews: 'reviews' };

function BinTable({ kind, title, entries, busy, onRestore }: { kind: BinKind; title: string; entries: BinEntry[]; busy: string | null; onRestore: (kind: BinKind, entry: BinEntry) => void }) {
  const id = `bin-${kind}`;
  return (
    <section aria-labelledby={id} data-testid={id}>
      <h3 id={id}>{title}</h3>
      {entries.length === 0 ? (
        <p>Nothing deleted in the last {BIN_DAYS} days.</p>
      ) : (
        <TableScroll label={title}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Deleted</th>
                <th scope="col">Restorable until</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry._id} data-testid="bin-entry">
                  <td>{entry.label}</td>
                  <td>{formatDate(entry.deletedAt)}</td>
                  <td>{formatDate(entry.expiresAt)}</td>
                  <td>
                    <button
                      type="button"
                      className={`${ui.secondary} ${styles.small}`}
                      aria-label={`Restore ${entry.label}`}
                      aria-disabled={busy !== null}
                      onClick={() => {
                        if (busy === null) onRestore(kind, entry);
                      }}
                    >
                      {busy === entry._id ? 'Restoring…' : 'Restore'}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <p>
        <Link to={paths.admin.to(SCREEN[kind])}>Go to {title.toLowerCase()}</Link>
      </p>
    </section>
  );
}

export default function BinScreen() {
  const dispatch = useAppDispatch();
  const load = useCallback(() => fetchBin(), []);
  const [state, reload] = useCall<Bin>(load);
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ notice?: string; error?: string }>({});

  const restore = (kind: BinKind, entry: BinEntry) => {
    setBusy(entry._id);
    setOutcome({});
    dispatch(restoreFromBin(kind, entry._id)).then(
      (message) => {
        dispatch(kind === 'drinks' ? adminProductsReloadRequested() : kind === 'codes' ? codesReloadRequested() : adminReviewsReloadRequested());
        setOutcome({ notice: message });
        setBusy(null);
        reload();
      },
      (error: unknown) => {
        setOutcome({ error: errorMessage(error) });
        setBusy(null);
      },
    );
  };

  return (
    <section aria-labelledby="bin-title">
      <h2 id="bin-title" className={ui.sectionTitle}>
        Bin
      </h2>
      <p>Deleted drinks, discount codes and reviews wait here for {BIN_DAYS} days; restoring one brings it back as it was.</p>
      <WriteOutcome notice={outcome.notice ?? null} error={outcome.error ?? null} />
      <Part state={state} retry={reload} what="the bin">
        {(bin) => (
          <>
            {BIN_KINDS.map(({ kind, title }) => (
              <BinTable key={kind} kind={kind} title={title} entries={bin[kind]} busy={busy} onRestore={restore} />
            ))}
          </>
        )}
      </Part>
    </section>
  );
}
