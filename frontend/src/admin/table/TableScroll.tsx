// The box a wide admin table scrolls sideways in, so the page itself never does (at 200%
// zoom). A scrolling box must be reachable by keyboard, so it is a focusable region named after its table.
import type { ReactNode } from 'react';
import styles from './TableScroll.module.css';

export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={styles.scroll} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
