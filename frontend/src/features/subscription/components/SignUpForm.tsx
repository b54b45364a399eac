// The footer's sign-up: an e-mail address, an optional name and the lists to join (none ticked until the
// shopper chooses), with sending, thank-you and error states. Its own lazy chunk: the footer loads it. Every
// page renders the footer, so its labels are worded to contain no other form's label ('Name', 'E-mail',
// 'Address', 'Drink'), or those forms' label lookups would find two fields.
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
      <form onSubmit={onSubmit} aria-label="Newsletter sign-up" noValidate>
        <Field id="sign-up-email" label="Your email" type="email" autoComplete="email" value={email} onChange={setEmail} error={emailError} />
        <Field id="sign-up-name" label="What should we call you? (optional)" autoComplete="given-name" value={fullname} onChange={setFullname} />
        <fieldset className={styles.lists} aria-describedby={listsError ? 'sign-up-lists-error' : undefined}>
          <legend>Send me</legend>
          {SIGN_UP_LISTS.map(({ list, label }) => (
            <label key={list} className={styles.check}>
              <input
                type="checkbox"
                checked={lists.includes(list)}
                onChange={(e) =>
                  setLists((l) => (e.target.checked ? SIGN_UP_LISTS.map((s) => s.list).filter((n) => n === list || l.includes(n)) : l.filter((n) => n !== list)))
                }
              />{' '}
              {label}
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
