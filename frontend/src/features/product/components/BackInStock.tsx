// "E-mail me when it is back" on a sold-out drink: one e-mail when it returns, then the address is off the list.
// The shop confirms by e-mail at once. The answer replaces the form and takes the focus (the button that had
// it is gone), so a keyboard or screen-reader user hears what happened and stays where they were.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { Field } from '../../../components/Field';
import ui from '../../../components/ui.module.css';
import { errorMessage } from '../../../lib/api';
import type { AppThunk } from '../../../lib/thunk';
import { check } from '../../../lib/validation';
import type { Product } from '../../../types/catalog';

const askForAlert =
  (id: string, email: string): AppThunk<Promise<{ ok: boolean; message: string }>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const { message } = await api.post('/product/notify/{id}', { email: email.trim() }, { params: { id } });
      return { ok: true, message };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  };

function AlertAsked({ message }: { message: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <p ref={ref} role="status" tabIndex={-1} data-testid="back-in-stock-done">
      {message}
    </p>
  );
}

export function BackInStock({ product }: { product: Product }) {
  const dispatch = useAppDispatch();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check('email', email)) {
      setError('Enter a valid e-mail address');
      return;
    }
    setBusy(true);
    const outcome = await dispatch(askForAlert(product._id, email));
    setBusy(false);
    if (outcome.ok) {
      setDone(outcome.message);
      setError(null);
    } else setError(outcome.message);
  };

  if (done) return <AlertAsked message={done} />;
  return (
    <form onSubmit={(e) => void onSubmit(e)} aria-label="Back-in-stock alert" noValidate>
      <Field id="back-in-stock-email" label="E-mail me when it is back" type="email" value={email} onChange={setEmail} error={error} />
      <button type="submit" className={ui.secondary} disabled={busy}>
        {busy ? 'Saving…' : 'Notify me'}
      </button>
    </form>
  );
}
