// After a route change, what a sighted shopper sees at once is told to everyone else: focus moves to the new
// page's h1 (focusable with tabIndex -1), so the next Tab starts from the page rather than from the link left
// behind, and the page's title is read out from a polite live region. Not on the first page (the browser
// announces a loaded document itself), not when the address has a #fragment (the browser moves there), and
// not when the new page has put focus somewhere itself (a field it wants filled).
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/** How long a page may take to show its h1 (its chunk and data arriving) before focus is left alone. */
const WAIT_FOR_HEADING_MS = 10_000;
/** Time for the page's own effects to set its title once its h1 is on screen. */
const TITLE_SETTLES_MS = 250;

export function RouteAnnouncer() {
  const { pathname, hash } = useLocation();
  const [announced, setAnnounced] = useState('');
  // The page the visit began on, until the first route change.
  const landing = useRef<string | null>(pathname);

  useEffect(() => {
    if (landing.current === pathname) return undefined;
    landing.current = null;
    const main = document.getElementById('main');
    if (!main) return undefined;
    const focusBefore = document.activeElement;
    let done = false;
    let titleTimer: ReturnType<typeof setTimeout> | undefined;
    const observer = new MutationObserver(() => settle());
    const giveUp = setTimeout(() => stop(), WAIT_FOR_HEADING_MS);
    function stop() {
      done = true;
      observer.disconnect();
      clearTimeout(giveUp);
    }
    function settle() {
      const heading = done ? null : main?.querySelector('h1');
      if (!heading) return;
      stop();
      const active = document.activeElement;
      const pageTookFocus = active !== null && active !== focusBefore && active !== main && main?.contains(active);
      if (!hash && !pageTookFocus) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
      }
      setAnnounced('');
      titleTimer = setTimeout(() => setAnnounced(document.title || heading.textContent || ''), TITLE_SETTLES_MS);
    }
    observer.observe(main, { childList: true, subtree: true });
    settle();
    return () => {
      stop();
      clearTimeout(titleTimer);
    };
  }, [pathname, hash]);

  return (
    <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {announced}
    </p>
  );
}

export default RouteAnnouncer;
