// The mailer's screen once a mailing is queued: where it stands ('Queued, 0 of 5 sent', 'Sending, 2 of 5 sent',
// 'Sent, 5 of 5 sent'), polled every 2 seconds until it is sent or failed. It never says the mail has gone
// before the sender says so (the spec's 'Emails have been sent' did, at the moment it was only queued).
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import styles from '../../adminScreens.module.css';
import { fetchMailingProgress, isUnderway, selectSubscription } from '../subscriptionSlice';

export const POLL_MS = 2000;

const STATUS_TEXT = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed: no e-mail could be sent',
} as const;

export function MailingProgress() {
  const dispatch = useAppDispatch();
  const { mailingId, mailing, recipients } = useAppSelector(selectSubscription);
  const underway = mailing === null || isUnderway(mailing);

  useEffect(() => {
    if (!mailingId || !underway) return;
    void dispatch(fetchMailingProgress(mailingId));
    const timer = window.setInterval(() => void dispatch(fetchMailingProgress(mailingId)), POLL_MS);
    return () => window.clearInterval(timer);
  }, [dispatch, mailingId, underway]);

  const total = mailing?.recipients ?? recipients;
  const done = mailing ? mailing.sent + mailing.failed + mailing.skipped : 0;
  const status = mailing?.status ?? 'queued';
  return (
    <div aria-label="Mailing progress" data-testid="mailing-progress" data-status={status}>
      <p className={status === 'sent' ? styles.success : undefined} aria-live="polite" data-testid="mailing-progress-text">
        {STATUS_TEXT[status]}, {mailing?.sent ?? 0} of {total} sent
        {mailing && mailing.failed > 0 && <>, {mailing.failed} failed</>}
        {mailing && mailing.skipped > 0 && <>, {mailing.skipped} unsubscribed meanwhile</>}.
      </p>
      <progress max={Math.max(total, 1)} value={status === 'sent' && total === 0 ? 1 : done} aria-label="Mails sent so far" />
    </div>
  );
}
