// A controlled labelled field (input or textarea) with its error tied to it for screen readers, as the
// checkout and admin forms use it. (components/Field is the uncontrolled variant; unify them.)
import styles from './FormField.module.css';

export interface FormFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  type?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'tel' | 'email' | 'text';
  placeholder?: string;
  multiline?: boolean;
}

export function FormField({ id, label, value, onChange, error, type = 'text', autoComplete, inputMode, placeholder, multiline }: FormFieldProps) {
  const shared = {
    id,
    value,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    autoComplete,
    placeholder,
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...shared} rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...shared} type={type} inputMode={inputMode} onChange={(e) => onChange(e.target.value)} />
      )}
      {error && (
        <span id={`${id}-error`} className={styles.error}>
          {error}
        </span>
      )}
    </div>
  );
}

