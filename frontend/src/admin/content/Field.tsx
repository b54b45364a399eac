// One labelled admin form field, with a hint and the error that names it.
import { useId } from 'react';
import styles from './AdminContent.module.css';

interface FieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null | undefined;
  hint?: string;
  multiline?: boolean;
  type?: 'text' | 'email' | 'tel' | 'url' | 'number';
  name?: string;
}

export function Field({ label, value, onChange, error, hint, multiline = false, type = 'text', name }: FieldProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    value,
    'aria-invalid': Boolean(error),
    'aria-describedby': described,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      {multiline ? <textarea {...common} rows={5} /> : <input {...common} type={type} />}
      {hint && (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={styles.fieldError}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The field a server message names ('name must be…', 'Social.x must be…'), if it is one of `fields`. */
export function fieldOfMessage<F extends string>(message: string | null, fields: readonly F[]): F | null {
  if (!message) return null;
  const first = message.trim().split(/[\s:]/, 1)[0] ?? '';
  return fields.find((field) => field === first) ?? null;
}

/** Image names typed as 'a.png, b.png'. */
export const parseImages = (text: string): string[] =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
