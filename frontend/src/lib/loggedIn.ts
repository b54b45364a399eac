// The spec's logged-in rule, on its own so the store (in the home page's script) does not pull in every
// validation rule with it.

/** Logged in means the stored e-mail is longer than 5 characters. */
export function isLoggedInEmail(email: string | null | undefined): boolean {
  return typeof email === 'string' && Array.from(email).length > 5;
}
