// /new/uk/subscription: the mail lists with how many subscribers each has, and the subscribers newest first
// in the shared admin table (sort, filter by text, list and the day they joined, CSV); an admin deletes a
// subscriber after the spec's confirm.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { EmptyView, StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { formatDate } from '../../lib/dates';
import type { Schemas } from '../../lib/api';
import styles from '../adminScreens.module.css';
import { deleteSubscriber, fetchMailLists, fetchSubscribersPage, selectSubscription, subscriptionReloadRequested } from './subscriptionSlice';
import { DeleteButton, WriteOutcome } from '../WriteOutcome';
import { AdminTable } from '../table/AdminTable';
import type { CsvColumn, TableModel } from '../table/tableQuery';
import { useWholeList } from '../table/wholeList';

type Subscriber = Schemas['Subscriber'];

export const subscriberModel: TableModel<Subscriber> = {
  sortBy: { email: (s) => s.email, name: (s) => s.fullname, lists: (s) => s.lists.join(', '), since: (s) => s.createdAt },
  text: (s) => [s.email, s.fullname],
  status: (s) => s.lists,
  date: (s) => s.createdAt,
};

export const subscriberCsv: readonly CsvColumn<Subscriber>[] = [
  { label: 'E-mail', value: (s) => s.email },
  { label: 'Name', value: (s) => s.fullname },
  { label: 'Lists', value: (s) => s.lists.join('; ') },
  { label: 'Subscribed', value: (s) => s.createdAt },
];

export default function SubscriptionScreen() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectSubscription);
  const { products: subscribers, status, error, reload, nextPage, busy } = state;


  useEffect(() => {
    void dispatch(fetchMailLists());
  }, [dispatch]);
  // Every visit loads the whole list; a retry, or a delete, loads it again.
  useWholeList({ status, nextPage, reload }, fetchSubscribersPage, selectSubscription);

  return (
    <section className={styles.screen} aria-labelledby="subscription-title">
      <h2 id="subscription-title" className={ui.sectionTitle}>
        Subscriptions
      </h2>
      <h3>Mail lists</h3>
      <StatusView
        status={state.listsStatus}
        error={state.listsError}
        onRetry={() => void dispatch(fetchMailLists())}
        isEmpty={state.lists.length === 0}
        loadingLabel="Loading the mail lists"
        errorTitle="We could not load the mail lists"
        empty={<EmptyView title="No mail lists" />}
      >
        <ul className={styles.stats} data-testid="mail-lists">
          {state.lists.map((list) => (
            <li key={list.name} className={styles.tile}>
              <strong>{list.name}</strong>: {list.count} {list.count === 1 ? 'subscriber' : 'subscribers'}
            </li>
          ))}
        </ul>
      </StatusView>
      <h3>Subscribers</h3>
      <WriteOutcome error={state.actionError} />
      <StatusView
        status={status}
        error={error}
        onRetry={() => dispatch(subscriptionReloadRequested())}
        isEmpty={subscribers.length === 0}
        loadingLabel="Loading subscribers"
        errorTitle="We could not load the subscribers"
        empty={<EmptyView title="No subscribers yet" />}
      >
        <AdminTable
          rows={subscribers}
          model={subscriberModel}
          columns={[
            { key: 'email', label: 'E-mail', rowHeader: true, cell: (subscriber) => subscriber.email },
            { key: 'name', label: 'Name', cell: (subscriber) => subscriber.fullname },
            { key: 'lists', label: 'Lists', cell: (subscriber) => subscriber.lists.join(', ') },
            {
              key: 'since',
              label: 'Since',
              cell: (subscriber) => <time dateTime={subscriber.createdAt}>{formatDate(subscriber.createdAt)}</time>,
            },
            {
              key: 'actions',
              label: 'Actions',
              hiddenLabel: true,
              cell: (subscriber) => (
                <DeleteButton what={subscriber.email} disabled={busy.includes(subscriber._id)} onConfirmed={() => void dispatch(deleteSubscriber(subscriber._id))} />
              ),
            },
          ]}
          rowKey={(subscriber) => subscriber._id}
          filters={{
            text: 'Search by e-mail or name',
            status: { label: 'List', options: state.lists.map((list) => ({ value: list.name, label: list.name })) },
            date: 'Subscribed',
          }}
          csv={{ fileName: 'subscribers.csv', columns: subscriberCsv }}
          noun="subscribers"
          caption="Subscribers"
          testId="subscribers"
          rowTestId="subscriber"
          loadingMore={status === 'loading'}
        />
      </StatusView>
    </section>
  );
}
