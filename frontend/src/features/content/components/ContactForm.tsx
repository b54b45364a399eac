// The contact form: full name, e-mail, phone and message, checked with the spec's rules (lib/validation.ts)
// before sending; then the server's answer (the reply promise), or its 422 / 429 message.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Field as FormField } from '../../../components/Field';
import ui from '../../../components/ui.module.css';
import { check } from '../../../lib/validation';
import { feedbackReset, selectFeedback, sendFeedback, type FeedbackForm } from '../contentSlice';
import styles from './Content.module.css';

type Field = keyof FeedbackForm;

export const MESSAGE_MIN = 10;
export const MESSAGE_MAX = 1000;

interface Rule {
  label: string;
  valid: (value: string) => boolean;
  message: string;
  /** The control's attributes: its type and what the browser may fill in; the message is a textarea. */
  input: { type?: string; autoComplete?: string; maxLength?: number; multiline?: boolean };
}

/** Each field's rule and what to say when it fails. */
const RULES: Record<Field, Rule> = {
  fullname: {
    label: 'Full name',
    valid: (v) => check('checkout_fullname', v),
    message: 'Enter your full name (more than 5 characters).',
    input: { autoComplete: 'name' },
  },
  email: {
    label: 'E-mail',
    valid: (v) => check('email', v.trim()),
    message: 'Enter a valid e-mail address.',
    input: { type: 'email', autoComplete: 'email' },
  },
  phone: {
    label: 'Phone',
    valid: (v) => check('checkout_phone', v),
    message: 'Enter a phone number of at least 10 digits.',
    input: { type: 'tel', autoComplete: 'tel' },
  },
  message: {
    label: 'Message',
    input: { multiline: true, maxLength: MESSAGE_MAX },
    valid: (v) => {
      const n = Array.from(v.trim()).length;
      return n >= MESSAGE_MIN && n <= MESSAGE_MAX;
    },
    message: `Write a message of ${MESSAGE_MIN} to ${MESSAGE_MAX} characters.`,
  },
};

const FIELDS = Object.keys(RULES) as Field[];
const EMPTY: FeedbackForm = { fullname: '', email: '', phone: '', message: '' };

/** The fields that fail their rule. */
export function invalidFields(form: FeedbackForm): Field[] {
  return FIELDS.filter((field) => !RULES[field].valid(form[field]));
}

export function ContactForm() {
  const dispatch = useAppDispatch();
  const feedback = useAppSelector(selectFeedback);
  const [form, setForm] = useState<FeedbackForm>(EMPTY);
  const [showErrors, setShowErrors] = useState(false);
  const id = useId();
  const sent = useRef<HTMLDivElement>(null);
  const alert = useRef<HTMLParagraphElement>(null);
  const invalid = showErrors ? invalidFields(form) : [];
  // A 422 names its field first ('phone must be at least 10 digits'): mark that field too.
  const serverField = feedback.status === 'failed' ? FIELDS.find((f) => feedback.error?.startsWith(`${f} `)) : undefined;
  const sending = feedback.status === 'loading';

  // A fresh visit starts with an empty form, not the last visit's thank-you.
  useEffect(() => () => void dispatch(feedbackReset()), [dispatch]);
  useEffect(() => {
    // Move focus to the outcome so a screen reader (and a keyboard user) meets it next.
    if (feedback.status === 'loaded') sent.current?.focus();
    if (feedback.status === 'failed') alert.current?.focus();
  }, [feedback.status]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const failing = invalidFields(form);
    setShowErrors(true);
    if (failing.length > 0) {
      document.getElementById(`${id}-${failing[0]}`)?.focus();
      return;
    }
    void dispatch(sendFeedback(form));
  };

  if (feedback.status === 'loaded' && feedback.reload) {
    return (
      <div className={styles.success} role="status" tabIndex={-1} ref={sent} data-testid="contact-sent">
        <p>{feedback.message}</p>
        <button
          type="button"
          className={ui.secondary}
          onClick={() => {
            setForm(EMPTY);
            setShowErrors(false);
            dispatch(feedbackReset());
          }}
        >
          Send another message
        </button>
      </div>
    );
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={ui.sectionTitle}>
        Send us a message
      </h2>
      {feedback.status === 'failed' && (
        <p className={styles.alert} role="alert" tabIndex={-1} ref={alert}>
          {feedback.error}
        </p>
      )}
      {FIELDS.map((field) => {
        const rule = RULES[field];
        const inputId = `${id}-${field}`;
        const bad = invalid.includes(field) || serverField === field;
        return (
          <FormField
            key={field}
            id={inputId}
            name={field}
            label={rule.label}
            value={form[field]}
            onChange={(value) => setForm({ ...form, [field]: value })}
            error={bad ? (invalid.includes(field) ? rule.message : feedback.error) : null}
            rows={6}
            {...rule.input}
          />
        );
      })}
      <p className={styles.note}>We reply within 24 hours on business days (Monday to Friday).</p>
      <div>
        <button type="submit" className={ui.primary} disabled={sending}>
          {sending ? 'Sending…' : 'Send message'}
        </button>
      </div>
    </form>
  );
}
