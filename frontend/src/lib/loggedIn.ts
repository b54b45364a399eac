// The spec's "logged in" rule, apart from the rest of lib/validation.ts: every page needs it (the header),
// while the form rules are only needed by lazily loaded screens, so they stay out of the first page's script.

/** Logged in means the stored e-mail is longer than 5 characters. */
export function isLoggedInEmail(email: string | null | undefined): boolean {
  return typeof email === 'string' && Array.from(email).length > 5;
}
