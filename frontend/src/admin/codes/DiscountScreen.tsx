// /new/uk/discount: every code in the shared admin table (sort, filter by text, state and the day it was
// created, CSV) with its rate and uses, Update and Delete ('do you wnat delete'), and the
// create/update form whose button is enabled only when the rate is filled, and which refuses a rate the back
// end refuses (a whole number from 1 to 100) before sending. The form has the spec's `image`: names typed, or
// one picture uploaded on the spot (POST /api/uploading/ answers its name). After a success the list is
// refetched at once and the spec's text 'The operation was completed successfully. Return.' shows with what
// was done (the code, its rate and state), taking the focus, above the list as it now is.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { Field } from '../../components/Field';
import { StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { formatMoney } from '../../lib/format';
import { errorMessage, type Schemas } from '../../lib/api';
import { check } from '../../lib/validation';
import styles from '../adminScreens.module.css';
import {
  codeFormClosed,
  codeFormOpened,
  codesReloadRequested,
  codesReturned,
  deleteCode,
  emptyCodeForm,
  fetchCodes,
  formFromCode,
  rateAccepted,
  saveCode,
  selectCodes,
  SUCCESS_TEXT,
  type CodeForm,
} from './codesSlice';
import { ImageRequestError } from '../images/ImageErrors';
import { withNames } from '../content/forms';
import { ACCEPTED_TYPES, uploadSingle } from '../images/upload';
import { DeleteButton } from '../WriteOutcome';
import { AdminTable } from '../table/AdminTable';
import type { CsvColumn, TableModel } from '../table/tableQuery';

export function CodeFormView({ initial, saving, error }: { initial: CodeForm; saving: boolean; error: string | null }) {
  const dispatch = useAppDispatch();
  const [form, setForm] = useState<CodeForm>(initial);
  const update = Boolean(form._id);
  const set = (field: keyof CodeForm) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const rateFilled = form.discount.trim() !== '';
  const rateValid = check('discount_rate', form.discount.trim()) && rateAccepted(form.discount);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const uploadPicture = async (file: File | undefined) => {
    if (!file || uploading) return;
    setUploading(true);
    setUploadError(null);
    try {
      const name = await dispatch(uploadSingle(file));
      setForm((f) => ({ ...f, image: withNames(f.image, [name]) }));
    } catch (error) {
      setUploadError(errorMessage(error));
    } finally {
      setUploading(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (rateFilled && rateValid) void dispatch(saveCode(form));
  };
  return (
    <form className={styles.form} onSubmit={onSubmit} aria-label={update ? `Update code ${form.code}` : 'New discount code'}>
      <h3>{update ? `Update ${form.code}` : 'New discount code'}</h3>
      {!update && <Field id="code-code" label="Code" value={form.code} onChange={set('code')} />}
      <Field
        id="code-rate"
        label="Rate (% off)"
        inputMode="numeric"
        value={form.discount}
        onChange={set('discount')}
        error={rateFilled && !rateValid ? 'The rate is a whole number from 1 to 100' : undefined}
      />
      <Field id="code-max" label="Maximum uses (empty for no limit)" inputMode="numeric" value={form.maxUses} onChange={set('maxUses')} />
      <Field id="code-expires" label="Last valid day" type="date" value={form.expiresOn} onChange={set('expiresOn')} />
      <label className={styles.check}>
        <input type="checkbox" checked={form.open} onChange={(e) => setForm((f) => ({ ...f, open: e.target.checked }))} /> Open (can be used)
      </label>
      <label className={styles.check}>
        <input type="checkbox" checked={form.oncePerEmail} onChange={(e) => setForm((f) => ({ ...f, oncePerEmail: e.target.checked }))} /> Once per
        e-mail address
      </label>
      <Field id="code-name" label="Promotion name" value={form.name} onChange={set('name')} />
      <Field id="code-des" label="Promotion text" value={form.des} onChange={set('des')} multiline />
      <Field id="code-link" label="Promotion link" value={form.link} onChange={set('link')} />
      <Field id="code-price" label="Promotion price (£)" inputMode="numeric" value={form.Discountprice} onChange={set('Discountprice')} />
      <Field id="code-image" label="Image" hint="Uploaded image names, separated by commas." value={form.image} onChange={set('image')} />
      <div className={styles.field}>
        <label htmlFor="code-image-file">Upload a picture for the promotion</label>
        <input
          id="code-image-file"
          type="file"
          accept={ACCEPTED_TYPES}
          aria-busy={uploading || undefined}
          onChange={(e) => {
            void uploadPicture(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
        <ImageRequestError message={uploadError} />
      </div>
      {error && (
        <p className={styles.alert} role="alert">
          {error}
        </p>
      )}
      <div className={styles.actions}>
        <button type="submit" className={ui.primary} disabled={!rateFilled || saving}>
          {update ? 'Update' : 'Create'}
        </button>
        <button type="button" className={ui.secondary} onClick={() => dispatch(codeFormClosed())}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type Code = Schemas['DiscountCode'];

const CODE_STATES = ['usable', 'closed', 'expired', 'used up'] as const;

/** Whether a shopper could use the code today: closed by the admin, past its last day, out of uses, or usable. */
export function codeState(code: Code, today = new Date().toISOString().slice(0, 10)): (typeof CODE_STATES)[number] {
  if (!code.open) return 'closed';
  if (code.expiresOn && code.expiresOn < today) return 'expired';
  if (code.maxUses != null && code.emailCount >= code.maxUses) return 'used up';
  return 'usable';
}

export const codeModel: TableModel<Code> = {
  sortBy: { code: (c) => c.code, rate: (c) => c.discount, uses: (c) => c.emailCount, limits: (c) => c.expiresOn },
  text: (c) => [c.code, c.name, c.des],
  status: (c) => codeState(c),
  date: (c) => c.createdAt,
};

export const codeCsv: readonly CsvColumn<Code>[] = [
  { label: 'Code', value: (c) => c.code },
  { label: 'Name', value: (c) => c.name },
  { label: 'Rate %', value: (c) => c.discount },
  { label: 'Uses', value: (c) => c.emailCount },
  { label: 'Most uses', value: (c) => c.maxUses },
  { label: 'Once per e-mail', value: (c) => (c.oncePerEmail ? 'yes' : 'no') },
  { label: 'Last day', value: (c) => c.expiresOn },
  { label: 'State', value: (c) => codeState(c) },
  { label: 'Created', value: (c) => c.createdAt },
];

/** The spec's success text with what was done; it takes the focus (the form that had it is gone). */
function CodeSaved({ notice }: { notice: string | null }) {
  const dispatch = useAppDispatch();
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => ref.current?.focus(), [notice]);
  return (
    <p ref={ref} className={styles.success} role="status" tabIndex={-1} data-testid="code-saved">
      {SUCCESS_TEXT} {notice}{' '}
      <button type="button" className={styles.linkButton} onClick={() => dispatch(codesReturned())}>
        Return.
      </button>
    </p>
  );
}

export default function DiscountScreen() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectCodes);
  useEffect(() => {
    void dispatch(fetchCodes());
  }, [dispatch]);
  useEffect(() => {
    if (state.reload) void dispatch(fetchCodes());
  }, [dispatch, state.reload]);

  let body;
  if (state.view === 'form') {
    const initial = state.editing ?? emptyCodeForm();
    body = <CodeFormView key={initial._id ?? 'new'} initial={initial} saving={state.saving} error={state.actionError} />;
  } else {
    body = (
      <>
        {state.view === 'done' && <CodeSaved notice={state.notice} />}
        <p>
          <button type="button" className={ui.primary} onClick={() => dispatch(codeFormOpened(null))}>
            New code
          </button>
        </p>
        {state.actionError && (
          <p className={styles.alert} role="alert">
            {state.actionError}
          </p>
        )}
        <StatusView
          status={state.status}
          error={state.error}
          onRetry={() => dispatch(codesReloadRequested())}
          isEmpty={state.codes.length === 0}
          loadingLabel="Loading discount codes"
          errorTitle="We could not load the codes"
          empty={<p>No discount codes yet.</p>}
        >
          <AdminTable
            rows={state.codes}
            model={codeModel}
            columns={[
              {
                key: 'code',
                label: 'Code',
                cell: (code) => (
                  <>
                    <strong>{code.code}</strong>
                    {code.name && <br />}
                    {code.name}
                  </>
                ),
              },
              { key: 'rate', label: 'Rate', num: true, cell: (code) => `${code.discount}%` },
              { key: 'uses', label: 'Uses', num: true, cell: (code) => code.emailCount },
              {
                key: 'limits',
                label: 'Limits',
                cell: (code) => (
                  <>
                    {code.open ? 'open' : 'closed'}
                    {code.maxUses != null && `, at most ${code.maxUses}`}
                    {code.oncePerEmail && ', once per e-mail'}
                    {code.expiresOn && `, until ${code.expiresOn}`}
                    {code.Discountprice > 0 && `, ${formatMoney(code.Discountprice)}`}
                  </>
                ),
              },
              {
                key: 'actions',
                label: 'Actions',
                cell: (code) => (
                  <div className={styles.actions}>
                    <button
                      type="button"
                      className={`${ui.secondary} ${styles.small}`}
                      aria-label={`Update ${code.code}`}
                      onClick={() => dispatch(codeFormOpened(formFromCode(code)))}
                    >
                      Update
                    </button>
                    <DeleteButton
                      what={`the discount code ${code.code}`}
                      detail={`${code.discount}% off, used ${code.emailCount} ${code.emailCount === 1 ? 'time' : 'times'}`}
                      binned
                      disabled={state.saving}
                      onConfirmed={() => void dispatch(deleteCode(code))}
                    />
                  </div>
                ),
              },
            ]}
            rowKey={(code) => code._id}
            filters={{
              text: 'Search by code or name',
              status: { label: 'State', options: CODE_STATES.map((state) => ({ value: state, label: state })) },
              date: 'Created',
            }}
            csv={{ fileName: 'discount-codes.csv', columns: codeCsv }}
            noun="codes"
            caption="Discount codes"
            rowTestId="discount-code"
          />
        </StatusView>
      </>
    );
  }

  return (
    <section className={styles.screen} aria-labelledby="codes-title">
      <h2 id="codes-title" className={ui.sectionTitle}>
        Discount codes
      </h2>
      {body}
    </section>
  );
}
