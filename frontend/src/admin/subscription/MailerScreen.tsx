// /new/uk/mailer: step 1 choose the lists (a 'Special selection' toggle selects or clears them all), step 2
// a subject and one or more sections. 'Show letter' previews only a valid letter (else the spec's 'Add Mail
// List' or 'inputs is empty'); from the preview 'Send Mail' asks 'Are you sure?' with what it will do (the
// subject and how many subscribers, counted by the server) and queues it; then the mailing's progress
// ('Queued, 0 of 5 sent' until it is sent), which takes the focus, and a way to send another. Cancel starts
// the letter again. The past mailings sit beside the mailer.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Field } from '../../components/Field';
import { StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import styles from '../adminScreens.module.css';
import { errorMessage } from '../../lib/api';
import { emptyLetter, emptySection, isWebAddress, letterError, sendQuestion, shown, type Letter, type LetterSection } from './letter';
import { MailingProgress } from './components/MailingProgress';
import { PastMailings } from './components/PastMailings';
import { countRecipients, fetchMailLists, mailerReset, selectSubscription, sendMailing } from './subscriptionSlice';
import { WriteOutcome } from '../WriteOutcome';

export const SEND_CONFIRM = 'Are you sure?';
const WEB_ONLY = 'Use a web address starting with http:// or https://';

function addressError(text: string): string | undefined {
  return text.trim() && !isWebAddress(text) ? WEB_ONLY : undefined;
}

/** The letter as its readers will see it: a field only when longer than 2 characters. */
export function LetterPreview({ letter }: { letter: Letter }) {
  return (
    <article className={styles.form} aria-label="Letter preview" data-testid="letter-preview">
      <p>
        To: <strong>{letter.lists.join(', ')}</strong>
      </p>
      <h3>{letter.subject.trim()}</h3>
      {letter.sections.map((section, i) => (
        <section key={i}>
          {shown(section.image) && isWebAddress(section.image) && <img src={section.image.trim()} alt={section.title.trim()} style={{ maxWidth: '100%' }} />}
          {shown(section.title) && <h4>{section.title.trim()}</h4>}
          {shown(section.description) && <p style={{ whiteSpace: 'pre-wrap' }}>{section.description.trim()}</p>}
          {shown(section.link) && isWebAddress(section.link) && (
            <p>
              <a href={section.link.trim()} target="_blank" rel="noreferrer noopener">
                Find out more
              </a>
            </p>
          )}
        </section>
      ))}
    </article>
  );
}

export default function MailerScreen({ confirm = (question: string) => window.confirm(question) }: { confirm?: (question: string) => boolean }) {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectSubscription);
  const [letter, setLetter] = useState<Letter>(emptyLetter);
  const [step, setStep] = useState<'compose' | 'preview'>('compose');
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [countError, setCountError] = useState<string | null>(null);
  const progress = useRef<HTMLDivElement>(null);

  useEffect(() => {
    dispatch(mailerReset());
    void dispatch(fetchMailLists());
  }, [dispatch]);
  // The Send button is gone once the mailing is queued: its progress has the focus.
  useEffect(() => {
    if (state.mailSent) progress.current?.focus();
  }, [state.mailSent]);

  /** Asks the spec's question with what sending will do, counted now by the server; then queues it. */
  const send = async () => {
    setAsking(true);
    setCountError(null);
    try {
      const recipients = await dispatch(countRecipients(letter.lists));
      if (confirm(`${SEND_CONFIRM}\n${sendQuestion(letter.subject, letter.lists, recipients)}`)) await dispatch(sendMailing(letter));
    } catch (error) {
      setCountError(errorMessage(error));
    } finally {
      setAsking(false);
    }
  };

  const names = state.lists.map((list) => list.name);
  const allChosen = names.length > 0 && names.every((name) => letter.lists.includes(name));
  const toggleList = (name: string, on: boolean) =>
    setLetter((l) => ({ ...l, lists: on ? names.filter((n) => n === name || l.lists.includes(n)) : l.lists.filter((n) => n !== name) }));
  const setSection = (index: number, field: keyof LetterSection) => (value: string) =>
    setLetter((l) => ({ ...l, sections: l.sections.map((s, i) => (i === index ? { ...s, [field]: value } : s)) }));
  const startAgain = () => {
    setLetter(emptyLetter());
    setStep('compose');
    setProblem(null);
    dispatch(mailerReset());
  };

  const showLetter = (event: FormEvent) => {
    event.preventDefault();
    const message = letterError(letter) ?? (letter.sections.some((s) => addressError(s.link) || addressError(s.image)) ? WEB_ONLY : null);
    setProblem(message);
    if (!message) setStep('preview');
  };

  let body;
  if (state.mailSent) {
    body = (
      <div role="status" tabIndex={-1} ref={progress} data-testid="mailing-status">
        <MailingProgress />
        <button type="button" className={ui.primary} onClick={startAgain}>
          Send another mail
        </button>
      </div>
    );
  } else if (step === 'preview') {
    body = (
      <>
        <LetterPreview letter={letter} />
        <WriteOutcome error={state.mailError ?? countError} />
        <div className={styles.actions}>
          <button type="button" className={ui.primary} disabled={state.sending || asking} onClick={() => void send()}>
            {state.sending ? 'Queueing…' : 'Send Mail'}
          </button>
          <button type="button" className={ui.secondary} onClick={() => setStep('compose')} disabled={state.sending}>
            Edit letter
          </button>
          <button type="button" className={ui.secondary} onClick={startAgain} disabled={state.sending}>
            Cancel
          </button>
        </div>
      </>
    );
  } else {
    body = (
      <form className={styles.form} onSubmit={showLetter} aria-label="Compose a mailing" noValidate>
        <fieldset>
          <legend>Step 1: recipients</legend>
          <StatusView
            status={state.listsStatus}
            error={state.listsError}
            onRetry={() => void dispatch(fetchMailLists())}
            isEmpty={state.lists.length === 0}
            loadingLabel="Loading the mail lists"
            errorTitle="We could not load the mail lists"
            empty={<p>No mail lists.</p>}
          >
            <label className={styles.check}>
              <input type="checkbox" checked={allChosen} onChange={(e) => setLetter((l) => ({ ...l, lists: e.target.checked ? [...names] : [] }))} /> Special
              selection (all lists)
            </label>
            {state.lists.map((list) => (
              <label key={list.name} className={styles.check}>
                <input type="checkbox" checked={letter.lists.includes(list.name)} onChange={(e) => toggleList(list.name, e.target.checked)} /> {list.name} (
                {list.count})
              </label>
            ))}
          </StatusView>
        </fieldset>
        <fieldset>
          <legend>Step 2: the letter</legend>
          <Field id="mail-subject" label="Subject" value={letter.subject} onChange={(subject) => setLetter((l) => ({ ...l, subject }))} />
          {letter.sections.map((section, i) => (
            <fieldset key={i} data-testid="letter-section">
              <legend>Section {i + 1}</legend>
              <Field id={`mail-title-${i}`} label="Title" value={section.title} onChange={setSection(i, 'title')} />
              <Field id={`mail-description-${i}`} label="Description" value={section.description} onChange={setSection(i, 'description')} multiline />
              <Field id={`mail-link-${i}`} label="Link" hint="https://…" value={section.link} onChange={setSection(i, 'link')} error={addressError(section.link)} />
              <Field id={`mail-image-${i}`} label="Image URL" hint="https://…" value={section.image} onChange={setSection(i, 'image')} error={addressError(section.image)} />
              {letter.sections.length > 1 && (
                <button
                  type="button"
                  className={`${ui.secondary} ${styles.small}`}
                  onClick={() => setLetter((l) => ({ ...l, sections: l.sections.filter((_, j) => j !== i) }))}
                >
                  Remove section {i + 1}
                </button>
              )}
            </fieldset>
          ))}
          <button type="button" className={ui.secondary} onClick={() => setLetter((l) => ({ ...l, sections: [...l.sections, emptySection()] }))}>
            Add section
          </button>
        </fieldset>
        {problem && (
          <p className={styles.alert} role="alert">
            {problem}
          </p>
        )}
        <div className={styles.actions}>
          <button type="submit" className={ui.primary}>
            Show letter
          </button>
          <button type="button" className={ui.secondary} onClick={startAgain}>
            Cancel
          </button>
        </div>
      </form>
    );
  }

  return (
    <section className={styles.screen} aria-labelledby="mailer-title">
      <h2 id="mailer-title" className={ui.sectionTitle}>
        Mailer
      </h2>
      <div className={styles.besides}>
        <div>{body}</div>
        <PastMailings />
      </div>
    </section>
  );
}
