// The footer's sign-up: an e-mail address, an optional name and the lists to join (none ticked until the
// shopper chooses), with sending, thank-you and error states. Its own lazy chunk: the footer loads it. Every
// page renders the footer, so its labels are worded to contain no other form's label ('Name', 'E-mail',
// 'Address', 'Drink'), or those forms' label lookups would find two fields. It starts clean on every page: an
// earlier attempt's refusal is not carried into a fresh form. A refused submit puts focus on the first thing
// to fix.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Field } from '../../../components/Field';
import ui from '../../../components/ui.module.css';
import { check } from '../../../lib/validation';
import { selectSignUp, signUp, signUpReset, SIGN_UP_LISTS } from '../signUpSlice';
import styles from './SignUpForm.module.css';

export const UNSUBSCRIBE_NOTE = 'You can unsubscribe at any time from the link in every e-mail.';

export function SignUpForm() {
  const dispatch = useAppDispatch();
  const { status, message, error } = useAppSelector(selectSignUp);
  const [email, setEmail] = useState('');
  const [fullname, setFullname] = useState('');
  const [lists, setLists] = useState<string[]>([]);
  const [tried, setTried] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const firstListRef = useRef<HTMLInputElement>(null);

  // A refusal belongs to the attempt that got it: a form that mounts again (another page's footer) starts
  // clean, and shows a refusal only after its own submit.
  const failedBefore = useRef(status === 'failed');
  useEffect(() => {
    if (failedBefore.current) dispatch(signUpReset());
  }, [dispatch]);

  const emailError = tried && !check('email', email.trim().toLowerCase()) ? 'Enter a valid e-mail address' : undefined;
  const listsError = tried && lists.length === 0 ? 'Tick at least one list' : undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    const emailOk = check('email', email.trim().toLowerCase());
    if (!emailOk) emailRef.current?.focus();
    else if (lists.length === 0) firstListRef.current?.focus();
    if (status === 'loading' || !emailOk || lists.length === 0) return;
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
        <Field ref={emailRef} id="sign-up-email" label="Your email" type="email" autoComplete="email" value={email} onChange={setEmail} error={emailError} />
        <Field id="sign-up-name" label="What should we call you? (optional)" autoComplete="given-name" value={fullname} onChange={setFullname} />
        <fieldset className={styles.lists} aria-describedby={listsError ? 'sign-up-lists-error' : undefined}>
          <legend>Send me</legend>
          {SIGN_UP_LISTS.map(({ list, label }, index) => (
            <label key={list} className={styles.check}>
              <input
                ref={index === 0 ? firstListRef : undefined}
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
        {tried && status === 'failed' && error && (
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
