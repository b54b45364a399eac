// Where the persisted slices live: localStorage's `persist:root` entry, with each slice under the spec's name
// (`Auth`, `AddCart`, `TheDiscount`) while the store keeps its own slice keys (auth, cart, discount).
// redux-persist writes each slice under its state key, so the renaming happens here, at the storage seam, in
// both directions. Reading also migrates what a returning shopper saved under the earlier names (auth, cart,
// discount): the version stays 1 (the spec's), so a version-based migration could not tell the two layouts
// apart, but the names can; the next write stores the spec's names only. This talks to localStorage itself
// rather than through redux-persist's web storage, whose wrapper would cost the home page's first script
// (which has a byte budget) more than this whole file.
import type { Storage } from 'redux-persist';

/** State key → the spec's name, as `key:Name` pairs. */
export const PERSISTED_NAMES = 'auth:Auth cart:AddCart discount:TheDiscount';

/**
 * Writing, state keys become the spec's names; reading, the spec's names become state keys, and a slice
 * still under its state key (the earlier layout) is taken unless the spec's name is also there (that newer
 * write wins). Text that is not a JSON object passes untouched (redux-persist reports it).
 */
export function renamed(text: string, reading?: boolean): string {
  try {
    const state = JSON.parse(text) as Record<string, unknown>;
    for (const pair of PERSISTED_NAMES.split(' ')) {
      const [from = '', to = ''] = reading ? pair.split(':').reverse() : pair.split(':');
      const value = state[from] ?? state[to];
      delete state[from];
      if (value !== undefined) state[to] = value;
    }
    return JSON.stringify(state);
  } catch {
    return text;
  }
}

/**
 * localStorage as redux-persist's Storage, the `rootKey` entry renamed. Async, so a blocked or missing
 * localStorage (private modes, the build's prerender in Node) is a rejected call that redux-persist
 * handles (it rehydrates with nothing, or reports the failed write) rather than a crash.
 */
export function specNamedStorage(rootKey: string): Storage {
  return {
    getItem: async (key: string) => {
      const text = localStorage.getItem(key);
      return key === rootKey && text ? renamed(text, true) : text;
    },
    setItem: async (key: string, value: string) => localStorage.setItem(key, key === rootKey ? renamed(value) : value),
    removeItem: async (key: string) => localStorage.removeItem(key),
  };
}
