// /new/uk/users: every customer and admin, newest first, 20 at a time with 'Load more users'. An admin can
// make someone an admin or a customer, or delete them after a confirm; never themselves (the server refuses
// too, with 422).
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { EmptyView, StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { selectUserInfo, type UserInfo } from '../../features/auth/authSlice';
import { formatDate } from '../../lib/dates';
import { usePageMeta } from '../../lib/meta';
import { FIRST_PAGE } from '../../lib/paging';
import { ErasurePanel } from '../users/ErasurePanel';
import { changeUserRole, deleteUser, fetchUsersPage, selectUsers, usersReloadRequested } from '../users/usersSlice';
import styles from './UsersScreen.module.css';
import { LoadMore } from '../../components/LoadMore';
import { WriteOutcome } from '../WriteOutcome';

interface UserRowProps {
  user: UserInfo;
  isSelf: boolean;
  busy: boolean;
  confirm: (question: string) => boolean;
}

function UserRow({ user, isSelf, busy, confirm }: UserRowProps) {
  const dispatch = useAppDispatch();
  const isAdmin = user.role === 'admin';
  return (
    <tr data-testid="user-row">
      <th scope="row" className={styles.email}>
        {user.email}
        {isSelf && <span className={styles.you}> (you)</span>}
      </th>
      <td>{user.fullname || '—'}</td>
      <td>
        <span className={isAdmin ? styles.admin : styles.customer}>{isAdmin ? 'admin' : 'customer'}</span>
      </td>
      <td>{user.createdAt ? formatDate(user.createdAt) : '—'}</td>
      <td>
        {isSelf ? (
          <span className={styles.muted}>Ask another admin</span>
        ) : (
          <div className={styles.rowActions}>
            <button
              type="button"
              className={ui.secondary}
              aria-disabled={busy}
              aria-label={`${isAdmin ? 'Make customer' : 'Make admin'}: ${user.email}`}
              onClick={() => {
                if (!busy) void dispatch(changeUserRole(user.email, isAdmin ? 'customer' : 'admin'));
              }}
            >
              {isAdmin ? 'Make customer' : 'Make admin'}
            </button>
            <button
              type="button"
              className={ui.accent}
              aria-disabled={busy}
              aria-label={`Delete ${user.email}`}
              onClick={() => {
                if (!busy && confirm(`Delete ${user.email}? This cannot be undone.`)) void dispatch(deleteUser(user.email));
              }}
            >
              Delete
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

export default function UsersScreen({ confirm = (question: string) => window.confirm(question) }: { confirm?: (question: string) => boolean }) {
  const dispatch = useAppDispatch();
  const me = useAppSelector(selectUserInfo);
  const { products: users, status, error, reload, nextPage, busy, actionError } = useAppSelector(selectUsers);

  usePageMeta('Users', 'Shop admin: customers and admins.');

  // Every visit starts at page 1; a retry, or a delete, fetches page 1 again.
  useEffect(() => {
    void dispatch(fetchUsersPage(FIRST_PAGE));
  }, [dispatch]);
  useEffect(() => {
    if (reload) void dispatch(fetchUsersPage(FIRST_PAGE));
  }, [dispatch, reload]);

  const loadingMore = status === 'loading' && users.length > 0;

  return (
    <section aria-labelledby="users-title">
      <h2 id="users-title" className={ui.sectionTitle}>
        Users
      </h2>
      <WriteOutcome error={actionError} />
      <StatusView
        status={status}
        error={error}
        onRetry={() => dispatch(usersReloadRequested())}
        isEmpty={users.length === 0}
        loadingLabel="Loading users"
        errorTitle="We could not load the users"
        empty={<EmptyView title="No users yet" />}
      >
        <div className={styles.scroll}>
          <table className={styles.table} data-testid="users-list">
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <UserRow
                  key={user.email}
                  user={user}
                  isSelf={user.email === me?.email}
                  busy={busy.includes(user.email)}
                  confirm={confirm}
                />
              ))}
            </tbody>
          </table>
        </div>
        <LoadMore nextPage={nextPage} loading={loadingMore} failed={status === 'failed'} label="Load more users" onLoad={(page) => void dispatch(fetchUsersPage(page))} />
      </StatusView>
      <ErasurePanel confirm={confirm} />
    </section>
  );
}
