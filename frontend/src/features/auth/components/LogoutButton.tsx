// Log out: auth goes back to its initial values (the persisted copy follows), then on to `to`.
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { userLoggedOut } from '../authSlice';

export function LogoutButton({ className, to = paths.home.to() }: { className?: string; to?: string }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        // Leave first, so a guarded page does not see the logout and send us to the login page instead.
        void navigate(to, { replace: true });
        dispatch(userLoggedOut());
      }}
    >
      Log out
    </button>
  );
}
