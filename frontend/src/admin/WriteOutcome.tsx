// What an admin screen says after a save, delete or upload: the notice, or the refusal as the server
// worded it; and the Delete button that asks the spec's question first. Shared by the admin screens. A new
// notice takes the focus (the button that was pressed has often gone with the form it was in), so the admin
// hears what happened and carries on from there.
import { useEffect, useRef } from 'react';
import ui from '../components/ui.module.css';
import styles from './adminScreens.module.css';
import { deleteQuestion } from './confirm';

/** A status message that takes the focus when it appears or changes. */
export function Notice({ text, testId }: { text: string; testId?: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [text]);
  return (
    <p ref={ref} className={styles.success} role="status" tabIndex={-1} data-testid={testId ?? 'write-notice'}>
      {text}
    </p>
  );
}

export function WriteOutcome({ notice, error }: { notice?: string | null; error?: string | null }) {
  return (
    <>
      {notice && <Notice text={notice} />}
      {error && (
        <p className={styles.alert} role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * 'Delete', asking 'do you wnat delete' and 'Delete {what}?' before `onConfirmed`; `what` names the item for
 * screen readers too. `binned`: the item goes to the bin (drinks, codes), which the question says.
 */
export function DeleteButton({
  what,
  detail,
  disabled,
  binned = false,
  onConfirmed,
}: {
  what: string;
  /** Which one it is, in the question only (a code's rate and uses). */
  detail?: string;
  disabled?: boolean;
  binned?: boolean;
  onConfirmed: () => void;
}) {
  return (
    <button
      type="button"
      className={`${ui.secondary} ${styles.small}`}
      aria-label={`Delete ${what}`}
      disabled={disabled}
      onClick={() => {
        if (window.confirm(deleteQuestion(what, binned, detail))) onConfirmed();
      }}
    >
      Delete
    </button>
  );
}
