// An admin list with its create/update form, for about, who-we-are, policy and link entries and categories.
// The form is in create mode when it holds no _id, in update mode otherwise. After a create or update the
// reload flag refetches the list; after a delete (once confirmed) the list is refetched. The text is edited
// beside a preview rendered as the shop renders it (paragraphs, "## " headings), updated as the admin types.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { EmptyView, StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { truncate } from '../../lib/format';
import { check } from '../../lib/validation';
import {
  adminReloadRequested,
  adminWriteCleared,
  deleteAdminItem,
  fetchAdminList,
  saveAdminItem,
  selectAdminList,
  type AdminItem,
  type EntryKind,
  type ItemDraft,
} from './adminContentSlice';
import styles from './AdminContent.module.css';
import { Notice } from '../WriteOutcome';
import { Field } from '../../components/Field';
import { Paragraphs } from '../../components/Paragraphs';
import { fieldOfMessage } from './forms';
import { PictureRemoval } from '../images/PictureRemoval';
import { ImagePicker } from '../images/ImagePicker';
import { UPLOAD_MODE } from '../images/upload';
import { PolicyVersions } from './PolicyVersions';

type FormField = 'name' | 'des' | 'link' | 'image' | 'sort';

export interface EntryScreenProps {
  kind: EntryKind;
  /** 'About text', 'Policies'. */
  title: string;
  /** One of the list's items: 'about text', 'policy'. */
  noun: string;
  /** Labels where the default ('Name', 'Description') does not fit. */
  labels?: Partial<Record<FormField, string>>;
}

interface FormState {
  _id?: string | undefined;
  name: string;
  des: string;
  link: string;
  image: string[];
  sort: string;
}

const EMPTY: FormState = { name: '', des: '', link: '', image: [], sort: '0' };

const fieldsOf = (kind: EntryKind): FormField[] =>
  kind === 'category' ? ['name', 'des', 'image'] : kind === 'link' ? ['name', 'des', 'link', 'image', 'sort'] : ['name', 'des', 'image', 'sort'];

function toForm(item: AdminItem): FormState {
  return {
    _id: item._id,
    name: item.name ?? '',
    des: item.des ?? '',
    link: item.link ?? '',
    image: [...(item.image ?? [])],
    sort: String(item.sort ?? 0),
  };
}

function toDraft(kind: EntryKind, form: FormState): ItemDraft {
  const fields = fieldsOf(kind);
  return {
    ...(form._id ? { _id: form._id } : {}),
    name: form.name.trim(),
    des: form.des.trim(),
    image: [...form.image],
    ...(fields.includes('link') ? { link: form.link.trim() } : {}),
    ...(fields.includes('sort') ? { sort: Number(form.sort) || 0 } : {}),
  };
}

/** What the form can tell before sending; the server checks the rest and its message names the field. */
function localErrors(kind: EntryKind, form: FormState): Partial<Record<FormField, string>> {
  const errors: Partial<Record<FormField, string>> = {};
  if (!check('name', form.name)) errors.name = 'name must be at least 3 characters';
  if (kind === 'link' && !/^(https?:\/\/|\/)\S*$/.test(form.link.trim())) {
    errors.link = 'link must be a web address (https://...) or a shop path (/...)';
  }
  if (fieldsOf(kind).includes('sort') && !/^\d+$/.test(form.sort.trim())) errors.sort = 'sort must be a whole number from 0';
  return errors;
}

export function EntryScreen({ kind, title, noun, labels = {} }: EntryScreenProps) {
  const dispatch = useAppDispatch();
  const list = useAppSelector((state) => selectAdminList(state, kind));
  const [form, setForm] = useState<FormState>(EMPTY);
  // The edited item's pictures as the server holds them: what may be deleted from storage.
  const [saved, setSaved] = useState<string[]>([]);
  const [errors, setErrors] = useState<Partial<Record<FormField, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const fields = fieldsOf(kind);
  const updating = Boolean(form._id);
  const serverField = fieldOfMessage(list.saveError, fields);

  useEffect(() => {
    if (list.status === 'idle' || list.reload) void dispatch(fetchAdminList(kind));
  }, [dispatch, kind, list.status, list.reload]);

  const set = (field: Exclude<FormField, 'image'>) => (value: string) => setForm((current) => ({ ...current, [field]: value }));

  const startCreate = () => {
    setForm(EMPTY);
    setErrors({});
    dispatch(adminWriteCleared(kind));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = localErrors(kind, form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (await dispatch(saveAdminItem(kind, toDraft(kind, form)))) setForm(EMPTY);
  };

  const remove = (item: AdminItem) => {
    if (!window.confirm(`Delete the ${noun} “${item.name}”?`)) return;
    void dispatch(deleteAdminItem(kind, item));
  };

  const errorFor = (field: FormField) => errors[field] ?? (serverField === field ? list.saveError : null);
  const label = (field: FormField, fallback: string) => labels[field] ?? fallback;

  return (
    <div className={styles.screen}>
      <section aria-labelledby={`${kind}-list-title`}>
        <div className={styles.head}>
          <h2 id={`${kind}-list-title`}>{title}</h2>
          <button type="button" className={ui.secondary} onClick={startCreate}>
            New {noun}
          </button>
        </div>
        {list.notice && <Notice text={list.notice} />}
        <StatusView
          status={list.status}
          error={list.error}
          onRetry={() => dispatch(adminReloadRequested(kind))}
          isEmpty={list.items.length === 0}
          loadingLabel={`Loading ${title.toLowerCase()}`}
          errorTitle={`We could not load ${title.toLowerCase()}`}
          empty={<EmptyView title={`No ${noun} yet`}>Use the form below to create the first one.</EmptyView>}
        >
          <ul className={styles.list} data-testid={`${kind}-list`}>
            {list.items.map((item) => (
              <li key={item._id} className={styles.item}>
                <span className={styles.itemText}>
                  <span className={styles.itemName}>{item.name}</span>
                  {item.des && <span className={styles.itemDes}>{truncate(item.des, 80)}</span>}
                </span>
                <span className={styles.actions}>
                  <button
                    type="button"
                    className={ui.secondary}
                    aria-label={`Update ${item.name}`}
                    onClick={() => {
                      setForm(toForm(item));
                      setSaved(item.image ?? []);
                      setErrors({});
                      dispatch(adminWriteCleared(kind));
                      // The form is below the list: take the admin there.
                      requestAnimationFrame(() => formRef.current?.querySelector('input')?.focus());
                    }}
                  >
                    Update
                  </button>
                  <button
                    type="button"
                    className={ui.secondary}
                    aria-label={`Delete ${item.name}`}
                    disabled={list.saving}
                    onClick={() => remove(item)}
                  >
                    Delete
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </StatusView>
      </section>

      <form ref={formRef} className={styles.form} onSubmit={(event) => void submit(event)} noValidate aria-labelledby={`${kind}-form-title`}>
        <h3 id={`${kind}-form-title`}>{updating ? `Update ${noun}: ${form.name || '…'}` : `Create ${noun}`}</h3>
        {list.saveError && !serverField && (
          <p className={styles.alert} role="alert">
            {list.saveError}
          </p>
        )}
        <Field label={label('name', 'Name')} name="name" value={form.name} onChange={set('name')} error={errorFor('name')} />
        <div className={styles.editor}>
          <Field
            label={label('des', 'Description')}
            name="des"
            value={form.des}
            onChange={set('des')}
            error={errorFor('des')}
            hint="A blank line starts a new paragraph; a line starting ## is a heading."
            multiline
            rows={12}
          />
          <section className={styles.preview} aria-labelledby={`${kind}-preview-title`} data-testid={`${kind}-preview`}>
            <h4 id={`${kind}-preview-title`} className={styles.previewTitle}>
              Preview
            </h4>
            {form.name.trim() || form.des.trim() ? (
              <div className={styles.previewText}>
                {form.name.trim() && <p className={styles.previewName}>{form.name.trim()}</p>}
                <Paragraphs text={form.des} level={5} anchors={false} />
              </div>
            ) : (
              <p className={styles.previewEmpty}>The text shows here as shoppers will read it.</p>
            )}
          </section>
        </div>
        {kind === 'policy' && form._id && <PolicyVersions key={form._id} id={form._id} />}
        {fields.includes('link') && (
          <Field
            label={label('link', 'Link')}
            name="link"
            value={form.link}
            onChange={set('link')}
            error={errorFor('link')}
            hint="A web address (https://...) or a shop path (/shop/drinks/)."
          />
        )}
        <ImagePicker
          key={form._id ?? 'new'}
          label={label('image', 'Images')}
          value={form.image}
          onChange={(image) => setForm((f) => ({ ...f, image }))}
          error={errorFor('image')}
        />
        {/* Only categories (mode 12) have pictures removed this way, as the spec's flow says. */}
        {form._id && kind === 'category' && (
          <PictureRemoval
            key={`remove-${form._id}`}
            mode={UPLOAD_MODE.category}
            id={form._id}
            images={saved}
            onRemoved={(keep) => {
              const gone = saved.filter((name) => !keep.includes(name));
              setSaved(keep);
              setForm((f) => ({ ...f, image: f.image.filter((name) => !gone.includes(name)) }));
              dispatch(adminReloadRequested(kind));
            }}
          />
        )}
        {fields.includes('sort') && (
          <Field label="Sort order" name="sort" type="number" value={form.sort} onChange={set('sort')} error={errorFor('sort')} />
        )}
        <div className={styles.actions}>
          <button type="submit" className={ui.primary} disabled={list.saving}>
            {list.saving ? 'Saving…' : updating ? 'Update' : 'Create'}
          </button>
          {updating && (
            <button type="button" className={ui.secondary} onClick={startCreate}>
              Cancel
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
