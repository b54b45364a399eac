// The navbar hides while the page scrolls down and comes back as soon as it scrolls up.
import { useEffect, useState } from 'react';

/** Movement smaller than this is ignored, so a trackpad's jitter does not flicker the bar. */
const THRESHOLD_PX = 6;

/**
 * The navbar's next state after a scroll from `lastY` to `y`: shown near the top, hidden going down, shown
 * going up; null when the move is too small to decide (keep the state and the reference point).
 */
export function nextHidden(lastY: number, y: number, revealZone: number): boolean | null {
  if (y <= revealZone) return false;
  const delta = y - lastY;
  if (Math.abs(delta) < THRESHOLD_PX) return null;
  return delta > 0;
}

/** Whether the navbar should be hidden; never while `pinned` (menu or basket open). */
export function useHideOnScroll(pinned: boolean, revealZone = 96): boolean {
  const [hidden, setHidden] = useState(false);

  useEffect(() => {
    if (pinned) {
      setHidden(false);
      return undefined;
    }
    let lastY = window.scrollY;
    // Passive and cheap: React skips the render when the state does not change.
    const onScroll = () => {
      const y = window.scrollY;
      const next = nextHidden(lastY, y, revealZone);
      if (next === null) return;
      lastY = y;
      setHidden(next);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [pinned, revealZone]);

  return hidden;
}
