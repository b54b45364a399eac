// The mailer's sent screen: the spec's 'Emails have been sent', then the progress of that mailing as the
// sender works through it (polled every 2 seconds until it is sent or failed).
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import styles from '../../adminScreens.module.css';
import { fetchMailingProgress, isUnderway, selectSubscription } from '../subscriptionSlice';

export const SENT_TEXT = 'Emails have been sent';
export const POLL_MS = 2000;

const STATUS_TEXT = {
  queued: 'Queued: sending starts in a moment',
  sending: 'Sending',
  sent: 'Finished',
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
  return (
    <div>
      <p className={styles.success}>
        {SENT_TEXT} ({recipients} {recipients === 1 ? 'recipient' : 'recipients'}).
      </p>
      <div aria-label="Mailing progress" data-testid="mailing-progress" data-status={mailing?.status ?? 'queued'}>
        <progress max={Math.max(total, 1)} value={mailing?.status === 'sent' && total === 0 ? 1 : done} aria-label="Mails sent so far" />
        <p aria-live="polite">
          {STATUS_TEXT[mailing?.status ?? 'queued']}: {mailing?.sent ?? 0} of {total} sent
          {mailing && mailing.failed > 0 && <>, {mailing.failed} failed</>}
          {mailing && mailing.skipped > 0 && <>, {mailing.skipped} unsubscribed meanwhile</>}.
        </p>
      </div>
    </div>
  );
}
