// The signed-in person's profile, shown and edited: e-mail (fixed: it is the login), full name, phone and
// address. Used by /account/profile and the admin's /new/uk/profile.
import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Field, fieldStyles } from '../../../components/Field';
import { StatusView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { formatDate } from '../../../lib/dates';
import {
  fetchProfile,
  profileEdited,
  profileReloadRequested,
  saveProfile,
  selectProfile,
  type ProfileChanges,
} from '../profileSlice';
import styles from './ProfileForm.module.css';

const EMPTY: ProfileChanges = { fullname: '', phone: '', address: '' };

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
    if (profile) setForm({ fullname: profile.fullname ?? '', phone: profile.phone ?? '', address: profile.address ?? '' });
  }, [profile]);

  const edit = (field: keyof ProfileChanges) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    dispatch(profileEdited());
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.status === 'loading') return;
    void dispatch(
      saveProfile({ fullname: form.fullname.trim(), phone: form.phone.trim(), address: form.address.trim() }),
    );
  };

  const saving = save.status === 'loading';

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
        <Field
          label="Delivery address"
          name="address"
          autoComplete="street-address"
          value={form.address}
          error={save.fieldErrors.address}
          onChange={edit('address')}
        />
        <div className={fieldStyles.actions}>
          <button type="submit" className={ui.primary} aria-disabled={saving}>
            {saving ? 'Saving…' : 'Save profile'}
          </button>
        </div>
      </form>
    </StatusView>
  );
}
