// Redirects the route table shares: to a path in place of the current entry, and to the login page (which
// sends the visitor back here once they are in, state/session/redirect.ts).
import { useEffect, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../paths';

/** Replaces the current entry with `to` (react-router's Navigate, without its weight in the first page). */
export function Redirect({ to, state }: { to: string; state?: unknown }) {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(to, { replace: true, state });
  }, [navigate, to, state]);
  return null;
}

/** To the login page, remembering where the visitor was going. */
export function ToLogin() {
  const { pathname, search } = useLocation();
  const from = `${pathname}${search}`;
  const state = useMemo(() => ({ from }), [from]);
  return <Redirect to={paths.login.to()} state={state} />;
}
