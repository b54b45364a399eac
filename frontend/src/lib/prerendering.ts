// While the build renders a page to HTML (scripts/prerender-pages.mjs), what changes by the hour is left out
// of the copy: prices, stock and ratings. The copy may be days old by the time a shopper opens it, and a
// price, a stock line or a review count must never say something untrue, even for the moment before the app
// takes the page over with the live values. No effect runs in that render, so the page's head (title,
// description) is noted here by usePageMeta as it renders. Only the build's render sets this; the browser
// never does.

/** What the document's head says of a page: its full title, meta description and Open Graph type. */
export interface PageHead {
  title: string;
  description: string;
  type: string;
}

let page: { head: PageHead | null } | null = null;

/** True only inside the build's render of a page. */
export const isPrerendering = (): boolean => page !== null;

/** The page's head, while the build renders it (lib/meta.ts's usePageMeta); nothing in the browser. */
export function notePageHead(head: PageHead): void {
  if (page) page.head = head;
}

/** Runs the build's render of a page, with the live values left out; answers it with the head it noted. */
export function prerendering<T>(render: () => T): { result: T; head: PageHead | null } {
  const rendering: { head: PageHead | null } = { head: null };
  page = rendering;
  try {
    return { result: render(), head: rendering.head };
  } finally {
    page = null;
  }
}
