// The names persisted slices are stored under: the spec's `Auth`, `AddCart` and `TheDiscount` inside the
// `persist:root` entry, while the store keeps its own slice keys (auth, cart, discount). redux-persist stores
// each slice under its state key, so the renaming happens at the storage seam, in both directions. Reading
// also migrates what a returning shopper saved under today's earlier names (auth, cart, discount): the
// version stays 1 (the spec's), so a version-based migration could not tell the two layouts apart, but the
// names can. The next write stores the spec's names only, so the old ones are gone after one visit.
import type { Storage } from 'redux-persist';

/** State key → the spec's stored name. */
export const PERSISTED_NAMES = { auth: 'Auth', cart: 'AddCart', discount: 'TheDiscount' } as const;

type StateKey = keyof typeof PERSISTED_NAMES;
const ENTRIES = Object.entries(PERSISTED_NAMES) as [StateKey, string][];

function parse(text: string | null): Record<string, unknown> | null {
  if (text == null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** What is stored → what redux-persist reads: the spec's names back to state keys, the old names kept. */
export function fromStored(text: string | null): string | null {
  const stored = parse(text);
  if (!stored) return text;
  const out: Record<string, unknown> = { ...stored };
  for (const [key, name] of ENTRIES) {
    delete out[name];
    // The spec's name wins when both exist: it is the newer write.
    const value = name in stored ? stored[name] : stored[key];
    if (value !== undefined) out[key] = value;
  }
  return JSON.stringify(out);
}

/** What redux-persist writes → what is stored: state keys renamed to the spec's names. */
export function toStored(text: string): string {
  const state = parse(text);
  if (!state) return text;
  const out: Record<string, unknown> = { ...state };
  for (const [key, name] of ENTRIES) {
    delete out[key];
    if (state[key] !== undefined) out[name] = state[key];
  }
  return JSON.stringify(out);
}

/** `storage`, with the root entry's slices stored under the spec's names. */
export function withSpecNames(storage: Storage, rootKey: string): Storage {
  return {
    getItem: async (key: string) => {
      const text = (await storage.getItem(key)) as string | null;
      return key === rootKey ? fromStored(text) : text;
    },
    setItem: (key: string, value: string) => storage.setItem(key, key === rootKey ? toStored(value) : value),
    removeItem: (key: string) => storage.removeItem(key),
  };
}
