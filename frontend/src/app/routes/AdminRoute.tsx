// /new/uk/*: the admin area, in its own frame (admin/AdminLayout.tsx) rather than the shop's. Only admins
// enter; everyone else (logged out or a customer) goes to the login page. The area's code loads only for an
// admin, so a shopper never downloads it.
import { Suspense } from 'react';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { LoadingView } from '../../components/StatusView';
import { selectIsAdmin } from '../../state/session/authSlice';
import { lazyPage } from '../../lib/chunks';
import { useAppSelector } from '../hooks';
import { ToLogin } from './redirects';

const AdminArea = lazyPage(() => import('../../admin/AdminArea'));

export default function AdminRoute() {
  const isAdmin = useAppSelector(selectIsAdmin);
  if (!isAdmin) return <ToLogin />;
  return (
    <ErrorBoundary>
      <Suspense fallback={<LoadingView label="Loading the admin area" cards={2} />}>
        <AdminArea />
      </Suspense>
    </ErrorBoundary>
  );
}
