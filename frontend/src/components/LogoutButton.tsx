// Log out: the server ends every token of the user (state/session/logout.ts), auth goes back to its initial values (the
// persisted copy follows), and the page becomes the login page. (Not home: a guarded page would see the logout before a transition to home and send us to the login
// page anyway, so both paths end here.)
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../app/hooks';
import { paths } from '../app/paths';
import { logOut } from '../state/session/logout';

export function LogoutButton({ className }: { className?: string }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        void dispatch(logOut()).then(() => navigate(paths.login.to(), { replace: true }));
      }}
    >
      Log out
    </button>
  );
}
