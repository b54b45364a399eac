// The checkout's Idempotency-Key outlives a reload: kept in localStorage with the basket it was made for, so
// a shopper who reloads while an order is on its way (or after the answer was lost) sends the same key for
// the same basket, and the server answers with that order instead of placing a second one. A different
// basket gets a new key. Storage that cannot be used (a private mode, the prerender) keeps nothing.

const STORAGE_KEY = 'checkoutKey';

interface Kept {
  key: string;
  basket: string;
}

/** The key kept for this basket, if any. */
export function keptKey(basket: string): string | null {
  try {
    const kept = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Kept> | null;
    return kept && kept.basket === basket && typeof kept.key === 'string' ? kept.key : null;
  } catch {
    return null;
  }
}

export function keepKey(key: string | null, basket: string): void {
  try {
    if (key) localStorage.setItem(STORAGE_KEY, JSON.stringify({ key, basket } satisfies Kept));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nowhere to keep it: a reload then starts a new key, as before.
  }
}
