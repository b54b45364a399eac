// The box a wide admin table scrolls sideways in, so the page itself never does (at 200%
// zoom). A scrolling box must be reachable by keyboard, so it is a focusable region named after its table.
import type { ReactNode } from 'react';
import styles from './TableScroll.module.css';

export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a box that scrolls must be reachable by keyboard to scroll it (WCAG 2.1.1)
    <div className={styles.scroll} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
