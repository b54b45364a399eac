// Where the login page sends someone once they are in, and how the guards tell it where they came from.
import { paths } from '../../app/paths';

/** What the guards put in the router's location state when they send someone to log in. */
export interface LoginState {
  from?: string;
}

const isAdminPath = (path: string): boolean => path === paths.admin.pattern || path.startsWith(`${paths.admin.pattern}/`);

/** An in-shop path (not another site, not the login page itself), or null. */
function safePath(from: unknown): string | null {
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//')) return null;
  if (/^\/[^/]+\/login\/?(\?|$)/.test(from)) return null;
  return from;
}

/**
 * After a login: an admin goes back into the admin area if that is where they came from; anyone else goes
 * back where they came from (but a customer is not sent back to the admin area they cannot enter);
 * otherwise an admin to the dashboard, a customer to their orders.
 */
export function loginDestination(from: unknown, isAdmin: boolean): string {
  const path = safePath(from);
  if (path && isAdminPath(path)) return isAdmin ? path : paths.account.orders.to();
  return path ?? (isAdmin ? paths.admin.to() : paths.account.orders.to());
}

export function cameFromAdmin(from: unknown): boolean {
  const path = safePath(from);
  return path !== null && isAdminPath(path);
}

/** The location state's `from`, whatever shape the state has. */
export function fromOf(state: unknown): string | undefined {
  const from = (state as LoginState | null | undefined)?.from;
  return typeof from === 'string' ? from : undefined;
}
