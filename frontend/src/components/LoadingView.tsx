// The loading state of the spec's state pattern: skeleton cards, and the label for screen readers. A module
// of its own (StatusView.tsx re-exports it) because the frame shows it while a page's chunk loads: the first
// page's script then carries this, not the error and empty views.
import styles from './StatusView.module.css';

export function LoadingView({ label, cards = 4 }: { label: string; cards?: number }) {
  return (
    <div role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      <ul className={styles.skeletons} aria-hidden="true">
        {Array.from({ length: cards }, (_, i) => (
          <li key={i} className={styles.skeleton} />
        ))}
      </ul>
    </div>
  );
}
