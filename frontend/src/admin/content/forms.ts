// Reading the admin content forms: which field a server message names, and image names typed as a list.

/** The field a server message names ('name must be…', 'Social.x must be…'), if it is one of `fields`. */
export function fieldOfMessage<F extends string>(message: string | null, fields: readonly F[]): F | null {
  if (!message) return null;
  const first = message.trim().split(/[\s:]/, 1)[0] ?? '';
  return fields.find((field) => field === first) ?? null;
}

/** Image names typed as 'a.png, b.png'. */
export const parseImages = (text: string): string[] =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
