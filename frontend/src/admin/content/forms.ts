// Reading the admin forms: which field a server message names, and adding names to a typed image list.

/** The field a server message names ('name must be…', 'Social.x must be…'), if it is one of `fields`. */
export function fieldOfMessage<F extends string>(message: string | null, fields: readonly F[]): F | null {
  if (!message) return null;
  const first = message.trim().split(/[\s:]/, 1)[0] ?? '';
  return fields.find((field) => field === first) ?? null;
}

/** A comma-separated image list (the discount form's) with `names` added at the end. */
export const withNames = (list: string, names: string[]): string => [list.trim(), ...names].filter(Boolean).join(', ');
