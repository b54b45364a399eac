// The footer's sign-up: an e-mail address, an optional name and the lists to join (none ticked until the
// shopper chooses), with sending, thank-you and error states. Its own lazy chunk: the footer loads it.
import { useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Field } from '../../../components/Field';
import ui from '../../../components/ui.module.css';
import { check } from '../../../lib/validation';
import { selectSignUp, signUp, SIGN_UP_LISTS } from '../signUpSlice';
import styles from './SignUpForm.module.css';

export const UNSUBSCRIBE_NOTE = 'You can unsubscribe at any time from the link in every e-mail.';

export function SignUpForm() {
  const dispatch = useAppDispatch();
  const { status, message, error } = useAppSelector(selectSignUp);
  const [email, setEmail] = useState('');
  const [fullname, setFullname] = useState('');
  const [lists, setLists] = useState<string[]>([]);
  const [tried, setTried] = useState(false);

  const emailError = tried && !check('email', email.trim().toLowerCase()) ? 'Enter a valid e-mail address' : undefined;
  const listsError = tried && lists.length === 0 ? 'Tick at least one list' : undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (status === 'loading' || !check('email', email.trim().toLowerCase()) || lists.length === 0) return;
    void dispatch(signUp({ email, fullname, lists }));
  };

  if (status === 'loaded') {
    return (
      <section aria-labelledby="sign-up-title" className={styles.signUp}>
        <h2 id="sign-up-title" className={styles.title}>
          Stay in touch
        </h2>
        <p role="status">{message}</p>
      </section>
    );
  }

  return (
    <section aria-labelledby="sign-up-title" className={styles.signUp}>
      <h2 id="sign-up-title" className={styles.title}>
        Stay in touch
      </h2>
      <form onSubmit={onSubmit} aria-label="Sign up to our e-mails" noValidate>
        <Field id="sign-up-email" label="E-mail address" type="email" autoComplete="email" value={email} onChange={setEmail} error={emailError} />
        <Field id="sign-up-name" label="Name (optional)" autoComplete="name" value={fullname} onChange={setFullname} />
        <fieldset className={styles.lists} aria-describedby={listsError ? 'sign-up-lists-error' : undefined}>
          <legend>Send me</legend>
          {SIGN_UP_LISTS.map((name) => (
            <label key={name} className={styles.check}>
              <input
                type="checkbox"
                checked={lists.includes(name)}
                onChange={(e) => setLists((l) => (e.target.checked ? SIGN_UP_LISTS.filter((n) => n === name || l.includes(n)) : l.filter((n) => n !== name)))}
              />{' '}
              {name}
            </label>
          ))}
          {listsError && (
            <p id="sign-up-lists-error" className={styles.error}>
              {listsError}
            </p>
          )}
        </fieldset>
        <p className={styles.note}>{UNSUBSCRIBE_NOTE}</p>
        {status === 'failed' && error && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
        <button type="submit" className={ui.primary} aria-disabled={status === 'loading'}>
          {status === 'loading' ? 'Signing up…' : 'Sign up'}
        </button>
      </form>
    </section>
  );
}

export default SignUpForm;
