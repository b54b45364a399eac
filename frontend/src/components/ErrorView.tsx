// The error state of the spec's state pattern: what went wrong, and 'Try again'. A module of its own
// (StatusView.tsx re-exports it) because the frame's error boundary shows it: the first page's script then
// carries this, not the whole state pattern.
import styles from './StatusView.module.css';
import ui from './ui.module.css';

export function ErrorView({ title, message, onRetry }: { title: string; message: string; onRetry: () => void }) {
  return (
    <div className={styles.panel} role="alert">
      <h2 className={styles.title}>{title}</h2>
      <p className={styles.detail}>{message}</p>
      <button type="button" className={ui.primary} onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
