// The admin's contact details (spec section 7): read with GET /api/contact/ and saved with
// POST /api/contact/create/ (phone, e-mail, address, opening hours, closed days), apart from the rest of the
// site info, which keeps its own form. The back end creates the site info record if there is none yet.
import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { Field } from '../../components/Field';
import ui from '../../components/ui.module.css';
import { errorMessage } from '../../lib/api';
import type { AppThunk } from '../../lib/thunk';
import { check } from '../../lib/validation';
import type { ContactInfo } from '../../types/catalog';
import { adminReloadRequested } from './adminContentSlice';
import styles from './AdminContent.module.css';
import { Notice } from '../WriteOutcome';
import { fieldOfMessage } from './forms';

type ContactField = keyof ContactInfo;
type ContactForm = Record<ContactField, string>;
const FIELDS: readonly ContactField[] = ['phone', 'email', 'open', 'close', 'address'];

const toForm = (c: ContactInfo | null): ContactForm => ({
  phone: c?.phone ?? '',
  email: c?.email ?? '',
  open: c?.open ?? '',
  close: c?.close ?? '',
  address: c?.address ?? '',
});

const loadContact = (): AppThunk<Promise<ContactInfo>> => (_dispatch, _getState, { api }) => api.get('/contact/');

const saveContact =
  (form: ContactForm): AppThunk<Promise<ContactInfo>> =>
  (_dispatch, _getState, { api }) =>
    api.post('/contact/create/', {
      phone: form.phone.trim(),
      email: form.email.trim(),
      open: form.open.trim(),
      close: form.close.trim(),
      address: form.address.trim(),
    });

function localErrors(form: ContactForm): Partial<Record<ContactField, string>> {
  const errors: Partial<Record<ContactField, string>> = {};
  if (form.phone.trim() && !check('phone', form.phone)) errors.phone = 'phone must be at least 10 digits';
  if (form.email.trim() && !check('email', form.email.trim())) errors.email = 'email must be a valid e-mail address';
  return errors;
}

export function ContactDetailsForm() {
  const dispatch = useAppDispatch();
  const [form, setForm] = useState<ContactForm | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<ContactField, string>>>({});
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<{ notice?: string; error?: string } | null>(null);

  const load = () => {
    setLoadError(null);
    dispatch(loadContact()).then(
      (contact) => setForm(toForm(contact)),
      (error: unknown) => setLoadError(errorMessage(error)),
    );
  };
  useEffect(load, [dispatch]);

  if (loadError) {
    return (
      <p className={styles.alert} role="alert">
        We could not load the contact details: {loadError}{' '}
        <button type="button" className={ui.secondary} onClick={load}>
          Try again
        </button>
      </p>
    );
  }
  if (!form) return <p>Loading the contact details…</p>;

  const serverField = fieldOfMessage(outcome?.error ?? null, FIELDS);
  const errorFor = (field: ContactField) => errors[field] ?? (serverField === field ? (outcome?.error ?? null) : null);
  const set = (field: ContactField) => (value: string) => setForm((f) => (f ? { ...f, [field]: value } : f));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = localErrors(form);
    setErrors(found);
    if (Object.keys(found).length > 0 || saving) return;
    setSaving(true);
    setOutcome(null);
    try {
      setForm(toForm(await dispatch(saveContact(form))));
      setOutcome({ notice: 'The contact details are saved.' });
      // The site info holds them too (and is created by this save when it did not exist yet).
      dispatch(adminReloadRequested('site'));
    } catch (error) {
      setOutcome({ error: errorMessage(error) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-labelledby="contact-details-title">
      <div className={styles.head}>
        <h2 id="contact-details-title">Contact details</h2>
      </div>
      {outcome?.notice && <Notice text={outcome.notice} />}
      {outcome?.error && !serverField && (
        <p className={styles.alert} role="alert">
          {outcome.error}
        </p>
      )}
      <fieldset className={styles.fieldset}>
        <legend>Contact and opening hours</legend>
        <div className={styles.fields}>
          <Field label="Phone" name="phone" type="tel" value={form.phone} onChange={set('phone')} error={errorFor('phone')} />
          <Field label="E-mail" name="email" type="email" value={form.email} onChange={set('email')} error={errorFor('email')} />
          <Field label="Opening hours" name="open" value={form.open} onChange={set('open')} error={errorFor('open')} hint="Mon-Fri 09:00-18:00, Sat 10:00-18:00" />
          <Field label="Closed" name="close" value={form.close} onChange={set('close')} error={errorFor('close')} hint="Sundays and bank holidays" />
        </div>
        <Field label="Address" name="address" value={form.address} onChange={set('address')} error={errorFor('address')} />
      </fieldset>
      <div className={styles.actions}>
        <button type="submit" className={ui.primary} aria-disabled={saving}>
          {saving ? 'Saving…' : 'Save contact details'}
        </button>
      </div>
    </form>
  );
}
