// A labelled form field, one line or several: the label, an optional hint, the control and the field's
// error, wired for screen readers (aria-invalid, aria-describedby). `onChange` hands over the new text; any
// other input attribute passes through. Every form in the shop, storefront and admin, draws its fields with it.
import { useId, type InputHTMLAttributes, type Ref, type TextareaHTMLAttributes } from 'react';
import styles from './Field.module.css';

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string | undefined;
  /** Shown under the control and marks it invalid. */
  error?: string | null | undefined;
  /** A fixed id (pages and tests that point at the control); a generated one otherwise. */
  id?: string | undefined;
  /** A textarea instead of a one-line input. */
  multiline?: boolean;
  rows?: number;
  ref?: Ref<HTMLInputElement>;
}

export function Field({ label, hint, error, id: fixedId, multiline = false, rows = 4, className, ref, onChange, ...control }: FieldProps) {
  const generated = useId();
  const id = fixedId ?? generated;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const common = {
    id,
    className: styles.input,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
  } as const;
  let input;
  if (multiline) {
    // Input-only attributes (type, accept, ...) mean nothing on a textarea: drop the type, pass the rest.
    const { type: _type, ...rest } = control;
    input = (
      <textarea
        {...(rest as TextareaHTMLAttributes<HTMLTextAreaElement>)}
        {...common}
        rows={rows}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  } else {
    input = <input ref={ref} {...control} {...common} onChange={(event) => onChange(event.target.value)} />;
  }
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
      {input}
      {error && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
    </div>
  );
}

export { styles as fieldStyles };
