// /new/uk/subscription: the mail lists with how many subscribers each has, and the subscribers newest first,
// 20 at a time with 'Load more subscribers'; an admin deletes a subscriber after the spec's confirm.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { EmptyView, StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { formatDate } from '../../lib/dates';
import { usePageMeta } from '../../lib/meta';
import { FIRST_PAGE } from '../../lib/paging';
import styles from '../adminScreens.module.css';
import { deleteSubscriber, fetchMailLists, fetchSubscribersPage, selectSubscription, subscriptionReloadRequested } from '../subscription/subscriptionSlice';
import { DeleteButton, WriteOutcome } from '../WriteOutcome';
import { LoadMore } from '../../components/LoadMore';

export default function SubscriptionScreen() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectSubscription);
  const { products: subscribers, status, error, reload, nextPage, busy } = state;

  usePageMeta('Subscriptions', 'Shop admin: mail lists and subscribers.');

  useEffect(() => {
    void dispatch(fetchSubscribersPage(FIRST_PAGE));
    void dispatch(fetchMailLists());
  }, [dispatch]);
  useEffect(() => {
    if (reload) void dispatch(fetchSubscribersPage(FIRST_PAGE));
  }, [dispatch, reload]);

  const loadingMore = status === 'loading' && subscribers.length > 0;

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
        <div className={styles.tableWrap}>
          <table className={styles.table} data-testid="subscribers">
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Name</th>
                <th scope="col">Lists</th>
                <th scope="col">Since</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {subscribers.map((subscriber) => (
                <tr key={subscriber._id} data-testid="subscriber">
                  <th scope="row">{subscriber.email}</th>
                  <td>{subscriber.fullname}</td>
                  <td>{subscriber.lists.join(', ')}</td>
                  <td>
                    <time dateTime={subscriber.createdAt}>{formatDate(subscriber.createdAt)}</time>
                  </td>
                  <td>
                    <DeleteButton what={subscriber.email} disabled={busy.includes(subscriber._id)} onConfirmed={() => void dispatch(deleteSubscriber(subscriber._id))} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <LoadMore nextPage={nextPage} loading={loadingMore} failed={status === 'failed'} label="Load more subscribers" onLoad={(page) => void dispatch(fetchSubscribersPage(page))} />
      </StatusView>
    </section>
  );
}
