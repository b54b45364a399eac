// While the build renders a page to HTML (scripts/prerender-pages.mjs), what changes by the hour is left out
// of the copy: prices, stock and ratings. The copy may be days old by the time a shopper opens it, and a
// price, a stock line or a review count must never say something untrue, even for the moment before the app
// takes the page over with the live values. Only the build's render sets this; the browser never does.
let active = false;

/** True only inside the build's render of a page. */
export const isPrerendering = (): boolean => active;

/** Runs the build's render of a page, with the live values left out. */
export function prerendering<T>(render: () => T): T {
  active = true;
  try {
    return render();
  } finally {
    active = false;
  }
}
