// What an admin screen says after a save, delete or upload: the notice, or the refusal as the server
// worded it; and the Delete button that asks the spec's question first. Shared by the admin screens.
import ui from '../components/ui.module.css';
import styles from './adminScreens.module.css';
import { deleteQuestion } from './confirm';

export function WriteOutcome({ notice, error }: { notice?: string | null; error?: string | null }) {
  return (
    <>
      {notice && (
        <p className={styles.success} role="status">
          {notice}
        </p>
      )}
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
export function DeleteButton({ what, disabled, binned = false, onConfirmed }: { what: string; disabled?: boolean; binned?: boolean; onConfirmed: () => void }) {
  return (
    <button
      type="button"
      className={`${ui.secondary} ${styles.small}`}
      aria-label={`Delete ${what}`}
      disabled={disabled}
      onClick={() => {
        if (window.confirm(deleteQuestion(what, binned))) onConfirmed();
      }}
    >
      Delete
    </button>
  );
}
