// The past mailings beside the mailer: subject, date, lists, and how many were sent and failed.
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { StatusView } from '../../../components/StatusView';
import { formatDate } from '../../../lib/dates';
import styles from '../../adminScreens.module.css';
import { TableScroll } from '../../table/TableScroll';
import { fetchMailings, selectSubscription } from '../subscriptionSlice';

export function PastMailings() {
  const dispatch = useAppDispatch();
  const { mailings, mailingsStatus, mailingsError } = useAppSelector(selectSubscription);

  useEffect(() => {
    void dispatch(fetchMailings());
  }, [dispatch]);

  return (
    <aside aria-labelledby="past-mailings-title" className={styles.form}>
      <h3 id="past-mailings-title">Past mailings</h3>
      <StatusView
        status={mailingsStatus}
        error={mailingsError}
        onRetry={() => void dispatch(fetchMailings())}
        isEmpty={mailings.length === 0}
        loadingLabel="Loading the past mailings"
        errorTitle="We could not load the past mailings"
        empty={<p>No mailing sent yet.</p>}
      >
        <TableScroll label="Past mailings">
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">Date</th>
              <th scope="col">Lists</th>
              <th scope="col">Sent</th>
              <th scope="col">Failed</th>
            </tr>
          </thead>
          <tbody>
            {mailings.map((mailing) => (
              <tr key={mailing._id} data-testid="past-mailing" data-status={mailing.status}>
                <td>{mailing.subject}</td>
                <td>{formatDate(mailing.createdAt)}</td>
                <td>{mailing.lists.join(', ')}</td>
                <td>
                  {mailing.sent} of {mailing.recipients}
                  {mailing.status === 'queued' || mailing.status === 'sending' ? ' (sending)' : ''}
                </td>
                <td>{mailing.failed}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </TableScroll>
      </StatusView>
    </aside>
  );
}
