// Erasure requests on the users screen: an address the shop was asked by e-mail to erase (UK GDPR art. 17),
// and the audit of erasures made (who asked, when, how much changed; never the address). An erasure cut short
// (its function ran out of time) is listed with its address and a button that finishes it; one that waits for
// orders on their way names them.
import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { Field } from '../../components/Field';
import ui from '../../components/ui.module.css';
import { formatDate } from '../../lib/dates';
import { TableScroll } from '../table/TableScroll';
import { eraseAddress, fetchErasures, type ErasureEntry } from './usersSlice';

export function ErasurePanel({ confirm }: { confirm: (question: string) => boolean }) {
  const dispatch = useAppDispatch();
  const [email, setEmail] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const [entries, setEntries] = useState<ErasureEntry[]>([]);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    void dispatch(fetchErasures()).then((list) => {
      if (live) setEntries(list);
    });
    return () => {
      live = false;
    };
  }, [dispatch, round]);

  const finish = async (address: string) => {
    setOutcome(await dispatch(eraseAddress(address)));
    setRound((n) => n + 1);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address || !confirm(`Erase everything the shop holds about ${address}? Orders are kept without the person. This cannot be undone.`)) return;
    setOutcome(await dispatch(eraseAddress(address)));
    setEmail('');
    setRound((n) => n + 1);
  };

  return (
    <section aria-labelledby="erasure-title">
      <h3 id="erasure-title">Erasure requests</h3>
      <form onSubmit={(e) => void onSubmit(e)} aria-label="Erase an address">
        <Field id="erase-email" label="Address to erase (a request received by e-mail)" type="email" value={email} onChange={setEmail} />
        <button type="submit" className={ui.accent} disabled={!email.trim()}>
          Erase
        </button>
      </form>
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} data-testid="erasure-outcome">
          {outcome.message}
        </p>
      )}
      {entries.length > 0 && (
        <TableScroll label="Erasures made">
        <table data-testid="erasure-audit">
          <caption>Erasures made</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Asked by</th>
              <th scope="col">Orders kept without the person</th>
              <th scope="col">Reviews kept without the author</th>
              <th scope="col">Subscriptions removed</th>
              <th scope="col">Other items deleted</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={`${entry.at}${entry.finished ? '' : entry.email}`}>
                <td>{formatDate(entry.at)}</td>
                <td>{entry.by}</td>
                <td>{entry.erased.orders}</td>
                <td>{entry.erased.reviews}</td>
                <td>{entry.erased.subscriptions}</td>
                <td>{entry.erased.deleted}</td>
                <td>
                  {!entry.finished ? (
                    <>
                      Unfinished ({entry.email}){' '}
                      <button type="button" className={ui.secondary} onClick={() => void finish(entry.email ?? '')}>
                        Finish
                      </button>
                    </>
                  ) : entry.waitingOrders.length > 0 ? (
                    `Waits for ${entry.waitingOrders.map((o) => `order ${o.number ?? o._id} (${o.status})`).join(', ')}`
                  ) : (
                    'Done'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </TableScroll>
      )}
    </section>
  );
}
