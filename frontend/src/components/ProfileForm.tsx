// The signed-in person's profile, shown and edited: e-mail (fixed: it is the login), full name, phone and a
// UK address in its parts (the lines, the town and the postcode, which the courier and the card's postcode
// check need apart). An address saved in one box before the parts existed is shown above them until the
// parts are filled in. Used by /account/profile and the admin's /new/uk/profile.
import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { Field, fieldStyles } from './Field';
import { StatusView } from './StatusView';
import ui from './ui.module.css';
import { formatDate } from '../lib/dates';
import { ukPostcode } from '../lib/validation';
import {
  fetchProfile,
  profileEdited,
  profileReloadRequested,
  saveProfile,
  selectProfile,
  type ProfileChanges,
} from '../state/session/profileSlice';
import styles from './ProfileForm.module.css';

const EMPTY: ProfileChanges = { fullname: '', phone: '', addressLine1: '', addressLine2: '', town: '', postcode: '' };

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function ProfileForm() {
  const dispatch = useAppDispatch();
  const { status, error, reload, profile, save } = useAppSelector(selectProfile);
  const [form, setForm] = useState<ProfileChanges>(EMPTY);

  // Fetched on every visit (it may have changed elsewhere), and again on a retry.
  useEffect(() => {
    void dispatch(fetchProfile());
  }, [dispatch]);
  useEffect(() => {
    if (reload) void dispatch(fetchProfile());
  }, [dispatch, reload]);
  // The form starts from what the server holds, and follows it after a save.
  useEffect(() => {
    if (profile) {
      setForm({
        fullname: text(profile.fullname),
        phone: text(profile.phone),
        addressLine1: text(profile.addressLine1),
        addressLine2: text(profile.addressLine2),
        town: text(profile.town),
        postcode: text(profile.postcode),
      });
    }
  }, [profile]);

  const edit = (field: keyof ProfileChanges) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    dispatch(profileEdited());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.status === 'loading') return;
    const trimmed = Object.fromEntries(Object.entries(form).map(([name, value]) => [name, value.trim()])) as ProfileChanges;
    void dispatch(saveProfile(trimmed));
  };

  const saving = save.status === 'loading';
  // Saved in one box before the address had parts: shown until the parts replace it.
  const oneBox = profile && !text(profile.postcode) ? text(profile.address) : '';

  return (
    <StatusView
      status={status === 'loading' && profile ? 'loaded' : status}
      error={error}
      onRetry={() => dispatch(profileReloadRequested())}
      isEmpty={!profile}
      loadingLabel="Loading your profile"
      errorTitle="We could not load your profile"
      empty={null}
    >
      <form className={styles.form} onSubmit={submit} noValidate aria-label="Your profile">
        {save.status === 'loaded' && (
          <p className={fieldStyles.notice} role="status">
            Your profile is saved.
          </p>
        )}
        {save.error && (
          <p className={fieldStyles.alert} role="alert">
            {save.error}
          </p>
        )}
        <dl className={styles.facts}>
          <div>
            <dt>E-mail</dt>
            <dd>{profile?.email}</dd>
          </div>
          {profile?.createdAt && (
            <div>
              <dt>With us since</dt>
              <dd>{formatDate(profile.createdAt)}</dd>
            </div>
          )}
        </dl>
        <Field
          label="Full name"
          name="fullname"
          autoComplete="name"
          value={form.fullname}
          error={save.fieldErrors.fullname}
          onChange={edit('fullname')}
        />
        <Field
          label="Phone"
          name="phone"
          type="tel"
          autoComplete="tel"
          hint="At least 10 digits."
          value={form.phone}
          error={save.fieldErrors.phone}
          onChange={edit('phone')}
        />
        <fieldset className={styles.address}>
          <legend>Delivery address</legend>
          {oneBox && (
            <p className={fieldStyles.hint} data-testid="saved-address">
              Saved before: <span className={styles.preLine}>{oneBox}</span>. Enter it in the lines below.
            </p>
          )}
          <Field
            label="Address line 1"
            name="addressLine1"
            autoComplete="address-line1"
            value={form.addressLine1}
            error={save.fieldErrors.addressLine1}
            onChange={edit('addressLine1')}
          />
          <Field
            label="Address line 2 (optional)"
            name="addressLine2"
            autoComplete="address-line2"
            value={form.addressLine2}
            error={save.fieldErrors.addressLine2}
            onChange={edit('addressLine2')}
          />
          <Field label="Town or city" name="town" autoComplete="address-level2" value={form.town} error={save.fieldErrors.town} onChange={edit('town')} />
          <Field
            label="Postcode"
            name="postcode"
            autoComplete="postal-code"
            autoCapitalize="characters"
            value={form.postcode}
            error={save.fieldErrors.postcode}
            onChange={edit('postcode')}
            onBlur={() => setForm((current) => ({ ...current, postcode: ukPostcode(current.postcode) ?? current.postcode }))}
          />
        </fieldset>
        <div className={fieldStyles.actions}>
          <button type="submit" className={ui.primary} aria-disabled={saving}>
            {saving ? 'Saving…' : 'Save profile'}
          </button>
        </div>
      </form>
    </StatusView>
  );
}
