// /new/uk/siteinfo: the site info (name, descriptions, image, the five social links, the promotion line, the
// VAT facts and the company's registered name, number and office).
// Create mode (POST /api/connect/create/) while it has no _id, update mode (PUT /api/connect/update/{_id})
// after; a save sets the reload flag, which refetches it. The contact details and opening hours are the
// contact form's below (GET /api/contact/, POST /api/contact/create/), as the spec's calls have it: the site
// form leaves them out, so saving it never overwrites them.
import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ErrorView, LoadingView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { check } from '../../lib/validation';
import type { SiteInfo } from '../../types/catalog';
import { adminReloadRequested, fetchAdminSite, saveAdminSite, selectAdminSite, type SiteDraft } from './adminContentSlice';
import styles from './AdminContent.module.css';
import { Notice } from '../WriteOutcome';
import { Field } from '../../components/Field';
import { ContactDetailsForm } from './ContactDetailsForm';
import { fieldOfMessage } from './forms';
import { ImagePicker } from '../images/ImagePicker';

const SOCIAL = [
  ['facebook', 'Facebook'],
  ['instagram', 'Instagram'],
  ['x', 'X (Twitter)'],
  ['tiktok', 'TikTok'],
  ['youtube', 'YouTube'],
] as const;
type SocialKey = (typeof SOCIAL)[number][0];

type TextField =
  | 'name'
  | 'des'
  | 'cover_des'
  | 'discount'
  | 'vatRate'
  | 'vatNumber'
  | 'deliveryEstimate'
  | 'companyName'
  | 'companyNumber'
  | 'registeredOffice';
type FormState = Record<TextField, string> & { image: string[]; Social: Record<SocialKey, string> };
type ErrorKey = TextField | 'image' | `Social.${SocialKey}`;

const ERROR_KEYS: readonly ErrorKey[] = [
  'name', 'des', 'cover_des', 'image', 'discount', 'vatRate', 'vatNumber', 'deliveryEstimate', 'companyName', 'companyNumber', 'registeredOffice',
  'Social.facebook', 'Social.instagram', 'Social.x', 'Social.tiktok', 'Social.youtube',
];

function toForm(info: SiteInfo | null): FormState {
  const image = Array.isArray(info?.image) ? [...info.image] : info?.image ? [info.image] : [];
  const social = info?.Social;
  return {
    name: info?.name ?? '',
    des: info?.des ?? '',
    cover_des: info?.cover_des ?? '',
    image,
    discount: info?.discount == null ? '' : String(info.discount),
    vatRate: String(info?.vatRate ?? 20),
    vatNumber: info?.vatNumber ?? '',
    deliveryEstimate: info?.deliveryEstimate ?? '',
    companyName: info?.companyName ?? '',
    companyNumber: info?.companyNumber ?? '',
    registeredOffice: info?.registeredOffice ?? '',
    Social: {
      facebook: social?.facebook ?? '',
      instagram: social?.instagram ?? '',
      x: social?.x ?? '',
      tiktok: social?.tiktok ?? '',
      youtube: social?.youtube ?? '',
    },
  };
}

function toDraft(form: FormState): SiteDraft {
  const t = (v: string) => v.trim();
  return {
    name: t(form.name),
    des: t(form.des),
    cover_des: t(form.cover_des),
    image: [...form.image],
    discount: t(form.discount),
    vatRate: Number(t(form.vatRate)),
    vatNumber: t(form.vatNumber),
    deliveryEstimate: t(form.deliveryEstimate),
    companyName: t(form.companyName),
    companyNumber: t(form.companyNumber),
    registeredOffice: t(form.registeredOffice),
    Social: {
      facebook: t(form.Social.facebook),
      instagram: t(form.Social.instagram),
      x: t(form.Social.x),
      tiktok: t(form.Social.tiktok),
      youtube: t(form.Social.youtube),
    },
  };
}

function localErrors(form: FormState): Partial<Record<ErrorKey, string>> {
  const errors: Partial<Record<ErrorKey, string>> = {};
  if (!check('name', form.name)) errors.name = 'name must be at least 3 characters';
  const rate = Number(form.vatRate.trim());
  if (!form.vatRate.trim() || !Number.isInteger(rate) || rate < 0 || rate > 100) errors.vatRate = 'vatRate must be a whole percentage from 0 to 100';
  if (form.vatNumber.trim() && !/^GB ?\d{3} ?\d{4} ?\d{2}( ?\d{3})?$/.test(form.vatNumber.trim()))
    errors.vatNumber = 'vatNumber must be GB followed by 9 or 12 digits, e.g. GB123456789';
  if (form.companyNumber.trim() && !/^[A-Za-z0-9]{2}\d{6}$/.test(form.companyNumber.trim()))
    errors.companyNumber = 'companyNumber must be the 8 characters Companies House gives, e.g. 01234567 or SC123456';
  for (const [key] of SOCIAL) {
    const link = form.Social[key].trim();
    if (link && !/^https?:\/\/\S+$/.test(link)) errors[`Social.${key}`] = `Social.${key} must be a web address (https://...)`;
  }
  return errors;
}

export function SiteInfoScreen() {
  const dispatch = useAppDispatch();
  const site = useAppSelector(selectAdminSite);
  const [form, setForm] = useState<FormState>(() => toForm(site.info));
  const [errors, setErrors] = useState<Partial<Record<ErrorKey, string>>>({});
  const serverField = fieldOfMessage(site.saveError, ERROR_KEYS);
  const creating = !site.info?._id;

  useEffect(() => {
    if (site.status === 'idle' || site.reload) void dispatch(fetchAdminSite());
  }, [dispatch, site.status, site.reload]);
  // Each fetch (the first, and the refetch after a save) fills the form with what the server holds.
  useEffect(() => {
    if (site.status === 'loaded') setForm(toForm(site.info));
  }, [site.status, site.info]);

  if (site.status === 'failed') {
    return <ErrorView title="We could not load the site info" message={site.error ?? 'Try later'} onRetry={() => dispatch(adminReloadRequested('site'))} />;
  }
  if (site.status !== 'loaded' && !site.info) return <LoadingView label="Loading the site info" cards={2} />;

  const errorFor = (key: ErrorKey) => errors[key] ?? (serverField === key ? site.saveError : null);
  const set = (field: TextField) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const setSocial = (key: SocialKey) => (value: string) => setForm((f) => ({ ...f, Social: { ...f.Social, [key]: value } }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = localErrors(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    void dispatch(saveAdminSite(site.info?._id, toDraft(form)));
  };

  return (
    <>
    <form className={styles.form} onSubmit={submit} noValidate aria-labelledby="siteinfo-title">
      <div className={styles.head}>
        <h2 id="siteinfo-title">{creating ? 'Create the site info' : 'Site info'}</h2>
      </div>
      {site.notice && <Notice text={site.notice} />}
      {site.saveError && !serverField && (
        <p className={styles.alert} role="alert">
          {site.saveError}
        </p>
      )}
      <fieldset className={styles.fieldset}>
        <legend>The shop</legend>
        <Field label="Name" name="name" value={form.name} onChange={set('name')} error={errorFor('name')} />
        <Field label="Cover text (home hero)" name="cover_des" value={form.cover_des} onChange={set('cover_des')} error={errorFor('cover_des')} multiline />
        <Field label="Description" name="des" value={form.des} onChange={set('des')} error={errorFor('des')} multiline />
        <ImagePicker label="Images" value={form.image} onChange={(image) => setForm((f) => ({ ...f, image }))} error={errorFor('image')} />
        <Field label="Promotion line" name="discount" value={form.discount} onChange={set('discount')} error={errorFor('discount')} />
      </fieldset>
      <fieldset className={styles.fieldset}>
        <legend>Trading and VAT</legend>
        <Field label="VAT rate (%)" name="vatRate" inputMode="numeric" value={form.vatRate} onChange={set('vatRate')} error={errorFor('vatRate')} hint="Prices include VAT at this rate; each order keeps the rate it was sold at." />
        <Field label="VAT number" name="vatNumber" value={form.vatNumber} onChange={set('vatNumber')} error={errorFor('vatNumber')} hint="Shown on VAT receipts, e.g. GB123456789." />
        <Field label="Delivery estimate" name="deliveryEstimate" value={form.deliveryEstimate} onChange={set('deliveryEstimate')} error={errorFor('deliveryEstimate')} hint="Shown before paying and in the confirmation, e.g. 2 to 4 working days." />
      </fieldset>
      <fieldset className={styles.fieldset}>
        <legend>The company</legend>
        <p>Its registered name, number and office are shown in the footer, the terms, receipts and every order confirmation.</p>
        <Field label="Registered company name" name="companyName" value={form.companyName} onChange={set('companyName')} error={errorFor('companyName')} hint="e.g. Palestine Drinks Ltd" />
        <Field label="Company number" name="companyNumber" value={form.companyNumber} onChange={set('companyNumber')} error={errorFor('companyNumber')} hint="The 8 characters Companies House gives, e.g. 01234567." />
        <Field label="Registered office" name="registeredOffice" value={form.registeredOffice} onChange={set('registeredOffice')} error={errorFor('registeredOffice')} multiline />
      </fieldset>
      <fieldset className={styles.fieldset}>
        <legend>Social links</legend>
        <div className={styles.fields}>
          {SOCIAL.map(([key, label]) => (
            <Field key={key} label={label} name={`Social.${key}`} type="url" value={form.Social[key]} onChange={setSocial(key)} error={errorFor(`Social.${key}`)} />
          ))}
        </div>
      </fieldset>
      <div className={styles.actions}>
        <button type="submit" className={ui.primary} disabled={site.saving}>
          {site.saving ? 'Saving…' : creating ? 'Create' : 'Update'}
        </button>
      </div>
    </form>
    <ContactDetailsForm />
    </>
  );
}

export default SiteInfoScreen;
