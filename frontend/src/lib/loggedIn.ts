// The spec's logged-in rule, on its own so the first page (the header's account link) does not pull in
// every validation rule with it; lib/validation.ts re-exports it.

/** Logged in means the stored e-mail is longer than 5 characters (counted in characters, as Rust does). */
export function isLoggedInEmail(email: string | null | undefined): boolean {
  return typeof email === 'string' && Array.from(email).length > 5;
}
