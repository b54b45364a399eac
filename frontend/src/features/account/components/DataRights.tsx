// "Your data" on the profile page: download it, or delete the account (a code is e-mailed to confirm). Each
// step ends where the shopper can see it: the code's field takes the focus once the code is sent (the
// button that had it is gone), a refusal is announced beside it, and a deleted account ends on a page of its
// own that says so (/account/deleted). A download ends with a summary of what it holds; orders still on their
// way, which keep the name and address until they are delivered or refunded, are listed with their pages.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { Field } from '../../../components/Field';
import { Link } from '../../../components/Link';
import ui from '../../../components/ui.module.css';
import {
  confirmErasure,
  downloadMyData,
  requestErasure,
  type Outcome,
  type SummaryLine,
  type WaitingOrder,
} from '../dataRights';

export function DataRights() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [codeSent, setCodeSent] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<SummaryLine[] | null>(null);
  const [waiting, setWaiting] = useState<WaitingOrder[]>([]);
  const codeField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (codeSent) codeField.current?.focus();
  }, [codeSent]);

  const run = async <T extends Outcome>(action: () => Promise<T>): Promise<T> => {
    setBusy(true);
    const result = await action();
    setOutcome(result);
    setBusy(false);
    return result;
  };
  const onConfirm = async (event: FormEvent) => {
    event.preventDefault();
    const result = await run(() => dispatch(confirmErasure(code)));
    if (result.ok && result.finished) void navigate(paths.accountDeleted.to(), { replace: true, state: { message: result.message } });
  };

  return (
    <section aria-labelledby="data-title">
      <h2 id="data-title" className={ui.sectionTitle}>
        Your data
      </h2>
      <p>Download everything we hold about you: your profile, orders, reviews, subscriptions and login records.</p>
      <p>
        <button
          type="button"
          className={ui.secondary}
          disabled={busy}
          onClick={() =>
            void run(() => dispatch(downloadMyData())).then((result) => {
              if (result.summary) setSummary(result.summary);
            })
          }
        >
          Download my data
        </button>
      </p>
      {summary && (
        <div data-testid="data-summary">
          <p>In your download:</p>
          <ul>
            {summary.map((line) => (
              <li key={line.label}>
                {line.count === 1 && line.label === 'your profile' ? line.label : `${line.count} ${line.label}`}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p>
        Deleting your account removes your profile and subscriptions, and takes your name out of your reviews and your orders (we keep
        orders, without your details, for our accounts). It cannot be undone.
      </p>
      {!codeSent ? (
        <p>
          <button
            type="button"
            className={ui.secondary}
            disabled={busy}
            onClick={() =>
              void run(() => dispatch(requestErasure())).then((result) => {
                if (result.ok) {
                  setWaiting(result.waiting ?? []);
                  setCodeSent(true);
                }
              })
            }
          >
            Delete my account
          </button>
        </p>
      ) : (
        <form onSubmit={(e) => void onConfirm(e)} aria-label="Confirm deleting your account">
          {waiting.length > 0 && (
            <div data-testid="erasure-waiting">
              <p>
                These orders are still on their way. We keep your name and address on them until they are delivered or refunded, then
                take them out. If you would rather not wait, cancel one that has not shipped from its page first.
              </p>
              <ul>
                {waiting.map((order) => (
                  <li key={order._id}>
                    <Link to={paths.order.to(order._id)}>Order {order.number ?? order._id}</Link> ({order.status})
                  </li>
                ))}
              </ul>
            </div>
          )}
          <Field
            ref={codeField}
            id="erase-code"
            label="The code from the e-mail"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={setCode}
          />
          <button type="submit" className={ui.accent} disabled={busy || code.trim().length !== 6}>
            Delete my account for good
          </button>
        </form>
      )}
      {outcome && (
        <p id="data-rights-outcome" role={outcome.ok ? 'status' : 'alert'} data-testid="data-rights-outcome">
          {outcome.message}
        </p>
      )}
    </section>
  );
}
