// Log out: auth goes back to its initial values (the persisted copy follows), and the page becomes the login
// page. (Not home: a guarded page would see the logout before a transition to home and send us to the login
// page anyway, so both paths end here.)
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { userLoggedOut } from '../authSlice';

export function LogoutButton({ className }: { className?: string }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        dispatch(userLoggedOut());
        void navigate(paths.login.to(), { replace: true });
      }}
    >
      Log out
    </button>
  );
}
