// /new/uk/users: every customer and admin in the shared admin table (sort, filter by text, role and the day
// they joined, 20 a page, CSV), newest first. An admin can
// make someone an admin or a customer, or delete them after a confirm; never themselves (the server refuses
// too, with 422).
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { EmptyView, StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { selectUserInfo, type UserInfo } from '../../state/session/authSlice';
import { formatDate } from '../../lib/dates';
import { ErasurePanel } from './ErasurePanel';
import { changeUserRole, deleteUser, fetchUsersPage, selectUsers, usersReloadRequested } from './usersSlice';
import styles from './UsersScreen.module.css';
import { AdminTable } from '../table/AdminTable';
import type { CsvColumn, TableModel } from '../table/tableQuery';
import { useWholeList } from '../table/wholeList';
import { WriteOutcome } from '../WriteOutcome';

function UserActions({ user, isSelf, busy, confirm }: { user: UserInfo; isSelf: boolean; busy: boolean; confirm: (question: string) => boolean }) {
  const dispatch = useAppDispatch();
  const isAdmin = user.role === 'admin';
  if (isSelf) return <span className={styles.muted}>Ask another admin</span>;
  return (
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
  );
}

const roleOf = (u: UserInfo) => (u.role === 'admin' ? 'admin' : 'customer');

export const userModel: TableModel<UserInfo> = {
  sortBy: { email: (u) => u.email, name: (u) => u.fullname, role: roleOf, joined: (u) => u.createdAt },
  text: (u) => [u.email, u.fullname, u.phone],
  status: roleOf,
  date: (u) => u.createdAt,
};

export const userCsv: readonly CsvColumn<UserInfo>[] = [
  { label: 'E-mail', value: (u) => u.email },
  { label: 'Name', value: (u) => u.fullname },
  { label: 'Phone', value: (u) => u.phone },
  { label: 'Role', value: roleOf },
  { label: 'Joined', value: (u) => u.createdAt },
];

export default function UsersScreen({ confirm = (question: string) => window.confirm(question) }: { confirm?: (question: string) => boolean }) {
  const dispatch = useAppDispatch();
  const me = useAppSelector(selectUserInfo);
  const { products: users, status, error, reload, nextPage, busy, actionError } = useAppSelector(selectUsers);


  // Every visit loads the whole list; a retry, or a delete, loads it again.
  useWholeList({ status, nextPage, reload }, fetchUsersPage, selectUsers);

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
        <AdminTable
          rows={users}
          model={userModel}
          columns={[
            {
              key: 'email',
              label: 'E-mail',
              rowHeader: true,
              cell: (user) => (
                <span className={styles.email}>
                  {user.email}
                  {user.email === me?.email && <span className={styles.you}> (you)</span>}
                </span>
              ),
            },
            { key: 'name', label: 'Name', cell: (user) => user.fullname || '—' },
            {
              key: 'role',
              label: 'Role',
              cell: (user) => (
                <span className={user.role === 'admin' ? styles.admin : styles.customer}>{user.role === 'admin' ? 'admin' : 'customer'}</span>
              ),
            },
            { key: 'joined', label: 'Joined', cell: (user) => (user.createdAt ? formatDate(user.createdAt) : '—') },
            {
              key: 'actions',
              label: 'Actions',
              hiddenLabel: true,
              cell: (user) => <UserActions user={user} isSelf={user.email === me?.email} busy={busy.includes(user.email)} confirm={confirm} />,
            },
          ]}
          rowKey={(user) => user.email}
          filters={{
            text: 'Search by e-mail, name or phone',
            status: { label: 'Role', options: [{ value: 'admin', label: 'admin' }, { value: 'customer', label: 'customer' }] },
            date: 'Joined',
          }}
          csv={{ fileName: 'users.csv', columns: userCsv }}
          noun="users"
          caption="Users"
          testId="users-list"
          rowTestId="user-row"
          loadingMore={status === 'loading'}
        />
      </StatusView>
      <ErasurePanel confirm={confirm} />
    </section>
  );
}
