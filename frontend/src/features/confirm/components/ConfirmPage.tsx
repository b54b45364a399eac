// /confirm/{kind}?token=…: what an e-mail's confirmation link opens. It says what the button confirms and
// sends it only when pressed, so a link fetched by a mail scanner (or a preview) confirms nothing.
import { useRef, useState } from 'react';
import { useParams } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { fieldStyles } from '../../../components/Field';
import { Link } from '../../../components/Link';
import { PageHeading } from '../../../components/PageHeading';
import ui from '../../../components/ui.module.css';
import { usePageMeta } from '../../../lib/meta';
import { useQuery } from '../../../lib/useQuery';
import { confirmLink, isConfirmKind, type ConfirmKind, type Outcome } from '../confirm';

const WORDS: Record<ConfirmKind, { title: string; lead: string; button: string }> = {
  subscription: {
    title: 'Confirm your subscription',
    lead: 'Press the button to join the mail lists you signed up to. You can unsubscribe from any of our e-mails.',
    button: 'Yes, subscribe me',
  },
  alert: {
    title: 'Confirm your back-in-stock alert',
    lead: 'Press the button and we will e-mail you once when the drink is back in stock.',
    button: 'Yes, tell me when it is back',
  },
  review: {
    title: 'Confirm your review',
    lead: 'Press the button to confirm you wrote this review. If your address bought the drink, it then shows as a verified buyer’s review.',
    button: 'Confirm my review',
  },
};

export default function ConfirmPage() {
  const { kind } = useParams();
  const token = useQuery().get('token') ?? '';
  const dispatch = useAppDispatch();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const result = useRef<HTMLParagraphElement>(null);
  // The route lets only the known kinds through (app/pageRoutes.tsx).
  const confirmKind: ConfirmKind = isConfirmKind(kind) ? kind : 'subscription';
  const words = WORDS[confirmKind];
  usePageMeta(words.title, words.lead);

  const press = async () => {
    if (busy) return;
    setBusy(true);
    setOutcome(await dispatch(confirmLink(confirmKind, token)));
    setBusy(false);
    result.current?.focus();
  };

  return (
    <div className={ui.container}>
      <PageHeading title={words.title} lead={words.lead} crumbs={[{ label: 'Home', to: paths.home.to() }, { label: words.title }]} />
      {outcome?.ok ? (
        <p role="status" tabIndex={-1} ref={result} className={fieldStyles.notice}>
          {outcome.message}
        </p>
      ) : (
        <>
          {outcome && (
            <p role="alert" tabIndex={-1} ref={result} className={fieldStyles.alert}>
              {outcome.message}
            </p>
          )}
          {token ? (
            <button type="button" className={ui.primary} aria-disabled={busy} onClick={() => void press()}>
              {busy ? 'Confirming…' : words.button}
            </button>
          ) : (
            <p className={fieldStyles.alert} role="alert">
              This link is missing its code: use the link from the e-mail as it is.
            </p>
          )}
        </>
      )}
      <p>
        <Link to={paths.home.to()}>Back to the shop</Link>
      </p>
    </div>
  );
}
