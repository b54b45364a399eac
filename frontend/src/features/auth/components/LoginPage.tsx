// /{product}/login: log in with a code sent by e-mail. Step 1 asks for the e-mail (the spec: longer than 7
// and valid), step 2 for the 6-digit code (longer than 5), with a resend that waits out a visible cooldown.
// The server's messages (bad e-mail, wrong code with the tries left, too many codes) show as they come.
// Beside the code, "Sign in with a passkey" uses a passkey registered on the profile page instead.
// Once in, the shopper goes back where they came from (see redirect.ts).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { Field, fieldStyles } from '../../../components/Field';
import { PageHeading } from '../../../components/PageHeading';
import ui from '../../../components/ui.module.css';
import { usePageMeta } from '../../../lib/meta';
import { check } from '../../../lib/validation';
import {
  loginEmailEdited,
  RESEND_COOLDOWN_MS,
  selectAuth,
  selectIsAdmin,
  selectIsLoggedIn,
} from '../../../state/session/authSlice';
import { requestLoginCode, verifyLoginCode } from '../../../state/session/login';
import { cameFromAdmin, fromOf, loginDestination } from '../../../state/session/redirect';
import styles from './LoginPage.module.css';
import { LogoutButton } from '../../../components/LogoutButton';
import { Link } from '../../../components/Link';

export const EMAIL_RULE_MESSAGE = 'Enter your e-mail address, like name@example.com.';
export const CODE_RULE_MESSAGE = 'Enter the 6-digit code from the e-mail.';

/** Whole seconds from now until `sentAt + cooldownMs` (0 when over, or when nothing was sent). */
function secondsUntil(sentAt: number | null, cooldownMs: number): number {
  return sentAt === null ? 0 : Math.max(0, Math.ceil((sentAt + cooldownMs - Date.now()) / 1000));
}

/** The seconds left of the resend cooldown, counting down once a second. */
function useSecondsLeft(sentAt: number | null, cooldownMs: number): number {
  const [seconds, setSeconds] = useState(() => secondsUntil(sentAt, cooldownMs));
  useEffect(() => {
    setSeconds(secondsUntil(sentAt, cooldownMs));
    if (sentAt === null) return undefined;
    const timer = window.setInterval(() => {
      const left = secondsUntil(sentAt, cooldownMs);
      setSeconds(left);
      if (left === 0) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [sentAt, cooldownMs]);
  return seconds;
}

function EmailStep({ initialEmail }: { initialEmail: string }) {
  const dispatch = useAppDispatch();
  const { loading, error } = useAppSelector(selectAuth);
  const [email, setEmail] = useState(initialEmail);
  const [ruleError, setRuleError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!check('login_email', address)) {
      setRuleError(EMAIL_RULE_MESSAGE);
      return;
    }
    setRuleError(null);
    if (!loading) void dispatch(requestLoginCode(address));
  };

  const withPasskey = () => {
    const address = email.trim();
    if (!check('login_email', address)) {
      setRuleError(EMAIL_RULE_MESSAGE);
      return;
    }
    setRuleError(null);
    if (loading) return;
    // Loaded when asked for: most shoppers sign in with a code. On success the page sends them on.
    void import('../../../state/session/passkeys').then(({ signInWithPasskey }) => dispatch(signInWithPasskey(address)));
  };

  return (
    <form className={styles.card} onSubmit={submit} noValidate aria-labelledby="login-email-title">
      <h2 id="login-email-title" className={styles.stepTitle}>
        Step 1 of 2: your e-mail
      </h2>
      <p>We will e-mail you a 6-digit code. No password needed.</p>
      {error && (
        <p className={fieldStyles.alert} role="alert">
          {error}
        </p>
      )}
      <Field
        label="E-mail address"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        value={email}
        error={ruleError}
        onChange={setEmail}
      />
      <div className={fieldStyles.actions}>
        <button type="submit" className={ui.primary} aria-disabled={loading}>
          {loading ? 'Sending…' : 'Send me a code'}
        </button>
        {typeof window.PublicKeyCredential === 'function' && (
          <button type="button" className={ui.secondary} aria-disabled={loading} onClick={withPasskey}>
            Sign in with a passkey
          </button>
        )}
      </div>
    </form>
  );
}

function CodeStep({ email, codeSentAt }: { email: string; codeSentAt: number | null }) {
  const dispatch = useAppDispatch();
  const { loading, error } = useAppSelector(selectAuth);
  const [code, setCode] = useState('');
  const [ruleError, setRuleError] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const secondsLeft = useSecondsLeft(codeSentAt, RESEND_COOLDOWN_MS);
  const codeInput = useRef<HTMLInputElement>(null);

  // The step changed under the keyboard user: put them in the code field.
  useEffect(() => codeInput.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const text = code.trim();
    if (!check('login_code', text) || !/^\d{6}$/.test(text)) {
      setRuleError(CODE_RULE_MESSAGE);
      return;
    }
    setRuleError(null);
    if (loading) return;
    await dispatch(verifyLoginCode(email, text)); // on success the page sends the shopper on
  };

  const resend = async () => {
    if (secondsLeft > 0 || loading) return;
    setCode('');
    setResent(await dispatch(requestLoginCode(email)));
    codeInput.current?.focus();
  };

  return (
    <form className={styles.card} onSubmit={submit} noValidate aria-labelledby="login-code-title">
      <h2 id="login-code-title" className={styles.stepTitle}>
        Step 2 of 2: your code
      </h2>
      <p>
        We sent a 6-digit code to <strong>{email}</strong>. It works once, for 10 minutes.
      </p>
      {resent && !error && (
        <p className={fieldStyles.notice} role="status">
          A new code is on its way. Use the newest one.
        </p>
      )}
      {error && (
        <p className={fieldStyles.alert} role="alert">
          {error}
        </p>
      )}
      <Field
        ref={codeInput}
        label="Code from the e-mail"
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        value={code}
        error={ruleError}
        onChange={(value) => setCode(value.replace(/\D/g, ''))}
      />
      <div className={fieldStyles.actions}>
        <button type="submit" className={ui.primary} aria-disabled={loading}>
          {loading ? 'Checking…' : 'Log in'}
        </button>
        <button type="button" className={fieldStyles.linkButton} disabled={secondsLeft > 0} onClick={() => void resend()}>
          {secondsLeft > 0 ? `Send a new code in ${secondsLeft} s` : 'Send a new code'}
        </button>
        <button type="button" className={fieldStyles.linkButton} onClick={() => dispatch(loginEmailEdited())}>
          Use a different e-mail
        </button>
      </div>
    </form>
  );
}

/** Already logged in: say who, and offer the account, or a log out to switch accounts. */
function SignedIn({ email, blockedFromAdmin }: { email: string; blockedFromAdmin: boolean }) {
  return (
    <div className={styles.card}>
      {blockedFromAdmin && (
        <p className={fieldStyles.alert} role="alert">
          Only admins can open the admin area. Log out, then log in with an admin account.
        </p>
      )}
      <p>
        You are logged in as <strong>{email}</strong>.
      </p>
      <div className={fieldStyles.actions}>
        <Link className={ui.primary} to={paths.account.orders.to()}>
          Your account
        </Link>
        <LogoutButton className={ui.secondary} />
      </div>
    </div>
  );
}

export default function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const auth = useAppSelector(selectAuth);
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const isAdmin = useAppSelector(selectIsAdmin);
  const from = fromOf(location.state);

  // Logging in here (not arriving logged in) sends the shopper on; arriving logged in shows who they are.
  const loggedInOnArrival = useRef(isLoggedIn);
  useEffect(() => {
    if (isLoggedIn && !loggedInOnArrival.current) void navigate(loginDestination(from, isAdmin), { replace: true });
    if (!isLoggedIn) loggedInOnArrival.current = false;
  }, [isLoggedIn, isAdmin, from, navigate]);

  usePageMeta('Log in', 'Log in to Palestine Drinks with a one-time code sent to your e-mail: no password needed.');

  return (
    <div className={ui.container}>
      <PageHeading
        title="Log in"
        lead="See your orders and keep your delivery details, with a code we e-mail you."
        crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Log in' }]}
      />
      <div className={styles.page}>
        {isLoggedIn && auth.userInfo ? (
          <SignedIn email={auth.userInfo.email} blockedFromAdmin={cameFromAdmin(from) && !isAdmin} />
        ) : auth.verification && auth.pendingEmail ? (
          <CodeStep key={auth.pendingEmail} email={auth.pendingEmail} codeSentAt={auth.codeSentAt} />
        ) : (
          <>
            {cameFromAdmin(from) && (
              <p className={fieldStyles.notice} role="status">
                Log in with an admin account to open the admin area.
              </p>
            )}
            <EmailStep initialEmail={auth.pendingEmail ?? ''} />
          </>
        )}
      </div>
    </div>
  );
}
