// "Passkeys" on the profile pages (the account's and the admin's): the signed-in user's passkeys, one to add
// from this device, and a remove for each. A passkey signs in without an e-mailed code, so no flood of code
// requests for the address can keep its owner out.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch } from '../app/hooks';
import { Field, fieldStyles } from './Field';
import ui from './ui.module.css';
import { formatDate } from '../lib/dates';
import { passkeysSupported } from '../lib/webauthn';
import { addPasskey, listPasskeys, removePasskey, type Outcome, type Passkey } from '../state/session/passkeys';

export function Passkeys() {
  const dispatch = useAppDispatch();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const supported = passkeysSupported();

  const load = useCallback(async () => {
    const answer = await dispatch(listPasskeys());
    if (typeof answer === 'string') setLoadError(answer);
    else {
      setLoadError(null);
      setPasskeys(answer);
    }
  }, [dispatch]);
  useEffect(() => {
    void load();
  }, [load]);

  const run = async (action: () => Promise<Outcome>) => {
    setBusy(true);
    const result = await action();
    setOutcome(result);
    setBusy(false);
    if (result.ok) await load();
    return result;
  };
  const onAdd = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const result = await run(() => dispatch(addPasskey(name)));
    if (result.ok) setName('');
  };

  return (
    <section aria-labelledby="passkeys-title" data-testid="passkeys">
      <h2 id="passkeys-title" className={ui.sectionTitle}>
        Passkeys
      </h2>
      <p>Sign in with your fingerprint, face or device PIN instead of an e-mailed code. It works even when codes cannot reach you.</p>
      {loadError && (
        <p className={fieldStyles.alert} role="alert">
          {loadError}
        </p>
      )}
      {passkeys && passkeys.length === 0 && <p>You have no passkeys yet.</p>}
      {passkeys && passkeys.length > 0 && (
        <ul aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey._id} data-testid="passkey">
              <strong>{passkey.name}</strong>, added {formatDate(passkey.createdAt)}
              {passkey.lastUsedAt ? `, last used ${formatDate(passkey.lastUsedAt)}` : ', not used yet'}{' '}
              <button
                type="button"
                className={ui.secondary}
                disabled={busy}
                aria-label={`Remove the passkey ${passkey.name}`}
                onClick={() => void run(() => dispatch(removePasskey(passkey._id)))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <form onSubmit={(event) => void onAdd(event)} aria-label="Add a passkey">
          <Field label="Name for this passkey" hint="For example “Work laptop”. Optional." value={name} onChange={setName} maxLength={60} />
          <button type="submit" className={ui.primary} disabled={busy}>
            {busy ? 'Waiting for your device…' : 'Add a passkey on this device'}
          </button>
        </form>
      ) : (
        <p>This browser cannot create passkeys.</p>
      )}
      <p role="status" className={outcome && !outcome.ok ? fieldStyles.error : undefined}>
        {outcome?.message ?? ''}
      </p>
    </section>
  );
}
