// The question before an admin delete: the spec's own words first, then the item by name, and
// for what the bin keeps (drinks, discount codes, reviews) how long it can still be brought back.
export const DELETE_CONFIRM = 'do you wnat delete';

/** Days a deleted drink, code or review waits in the bin (shared::recycle_bin). */
export const BIN_DAYS = 30;

/**
 * 'do you wnat delete' and 'Delete Orange Sparkle?', plus the bin's promise when `binned`; `detail` says
 * which one it is where a name alone may not ('Delete the discount code SUMMER (10% off, used 3 times)?').
 */
export function deleteQuestion(what: string, binned = false, detail?: string): string {
  const bin = binned ? ` It stays in the bin for ${BIN_DAYS} days, from where you can restore it.` : ' This cannot be undone.';
  return `${DELETE_CONFIRM}\nDelete ${what}${detail ? ` (${detail})` : ''}?${bin}`;
}
