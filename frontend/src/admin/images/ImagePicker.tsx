// Choosing a form's pictures (the drink, category, content and site info forms): the chosen list in order
// (the first is the main one) with "Move <name> up/down" and "Remove <name>"; the gallery (GET
// /api/uploading/sh/) as checkboxes whose label is the thumbnail (alt text: the file name); and an upload in
// place (POST /api/new/?mode=22), whose names join the chosen list at once, so a new item needs no save
// first. Nothing is stored on the item until the form is saved; no file name is typed.
import { useEffect, useId, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import ui from '../../components/ui.module.css';
import { errorMessage, uploadUrl } from '../../lib/api';
import { WriteOutcome } from '../WriteOutcome';
import { AdminImage, ImageRequestError } from './ImageErrors';
import { fetchImages, imagesReloadRequested, selectImages } from './imagesSlice';
import styles from './ImagePicker.module.css';
import { ACCEPTED_TYPES, MAX_FILES, uploadForPicking } from './upload';

/** `list` with the name at `from` moved by `by` places (a move past either end changes nothing). */
export function moved(list: readonly string[], from: number, by: -1 | 1): string[] {
  const to = from + by;
  if (from < 0 || from >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

/** `list` with `names` added at the end, each once. */
export const withAdded = (list: readonly string[], names: readonly string[]): string[] => [
  ...list,
  ...names.filter((name, i) => !list.includes(name) && names.indexOf(name) === i),
];

export interface ImagePickerProps {
  /** The legend: 'Images'. */
  label: string;
  hint?: string;
  /** The chosen names, in order. */
  value: readonly string[];
  onChange: (names: string[]) => void;
  /** The server's or the form's message about the images. */
  error?: string | null;
}

export function ImagePicker({ label, hint, value, onChange, error }: ImagePickerProps) {
  const dispatch = useAppDispatch();
  const gallery = useAppSelector(selectImages);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);

  useEffect(() => {
    if (gallery.status === 'idle' || gallery.reload) void dispatch(fetchImages());
  }, [dispatch, gallery.status, gallery.reload]);

  const toggle = (name: string, on: boolean) => onChange(on ? withAdded(value, [name]) : value.filter((n) => n !== name));

  const upload = async () => {
    if (busy || files.length === 0) return;
    if (files.length > MAX_FILES) {
      setMessage({ text: `Choose at most ${MAX_FILES} pictures at once.`, failed: true });
      return;
    }
    setBusy(true);
    try {
      const names = await dispatch(uploadForPicking(files));
      onChange(withAdded(value, names));
      dispatch(imagesReloadRequested());
      setMessage({ text: names.length === 1 ? 'The picture is uploaded and chosen.' : `${names.length} pictures are uploaded and chosen.`, failed: false });
      setFiles([]);
      if (input.current) input.current.value = '';
    } catch (failure) {
      setMessage({ text: errorMessage(failure), failed: true });
    } finally {
      setBusy(false);
    }
  };

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className={styles.picker} aria-describedby={described} data-testid="image-picker">
      <legend>{label}</legend>
      {hint && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className={styles.alert} role="alert">
          {error}
        </p>
      )}

      <p className={styles.title}>Chosen, in order</p>
      {value.length === 0 ? (
        <p className={styles.hint}>None yet: tick pictures in the gallery below or upload new ones.</p>
      ) : (
        <ol className={styles.chosen} aria-label={`${label}: chosen`}>
          {value.map((name, i) => (
            <li key={name} className={styles.row} data-testid="chosen-image">
              <AdminImage src={uploadUrl(name)} alt="" width={56} height={56} loading="lazy" />
              <span className={styles.name}>
                <code>{name}</code>
                {i === 0 && <small> (main)</small>}
              </span>
              <span className={styles.buttons}>
                <button
                  type="button"
                  className={`${ui.secondary} ${styles.small}`}
                  aria-label={`Move ${name} up`}
                  aria-disabled={i === 0}
                  onClick={() => i > 0 && onChange(moved(value, i, -1))}
                >
                  Up
                </button>
                <button
                  type="button"
                  className={`${ui.secondary} ${styles.small}`}
                  aria-label={`Move ${name} down`}
                  aria-disabled={i === value.length - 1}
                  onClick={() => i < value.length - 1 && onChange(moved(value, i, 1))}
                >
                  Down
                </button>
                <button type="button" className={`${ui.secondary} ${styles.small}`} aria-label={`Remove ${name}`} onClick={() => toggle(name, false)}>
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ol>
      )}

      <p className={styles.title}>The gallery</p>
      {gallery.status === 'failed' ? (
        <div className={styles.alert} role="alert">
          We could not load the gallery: {gallery.error ?? 'Try later'}{' '}
          <button type="button" className={`${ui.secondary} ${styles.small}`} onClick={() => dispatch(imagesReloadRequested())}>
            Try again
          </button>
        </div>
      ) : gallery.status !== 'loaded' && gallery.names.length === 0 ? (
        <p className={styles.hint} role="status">
          Loading the gallery…
        </p>
      ) : gallery.names.length === 0 ? (
        <p className={styles.hint}>No images yet: upload the first ones below.</p>
      ) : (
        <ul className={styles.gallery} aria-label={`${label}: the gallery`}>
          {gallery.names.map((name) => (
            <li key={name}>
              <label className={styles.tile}>
                <input type="checkbox" checked={value.includes(name)} onChange={(e) => toggle(name, e.target.checked)} />
                <AdminImage src={uploadUrl(name)} alt={name} width={96} height={96} loading="lazy" decoding="async" />
              </label>
            </li>
          ))}
        </ul>
      )}

      <div className={styles.upload}>
        <label htmlFor={`${id}-files`}>Upload new pictures (PNG, JPEG, WebP or GIF; up to 4, 2 MB each)</label>
        <div className={styles.buttons}>
          <input ref={input} id={`${id}-files`} type="file" accept={ACCEPTED_TYPES} multiple onChange={(e) => setFiles(Array.from(e.target.files ?? []))} />
          <button type="button" className={`${ui.secondary} ${styles.small}`} onClick={() => void upload()} aria-disabled={busy || files.length === 0}>
            {busy ? 'Uploading…' : 'Upload pictures'}
          </button>
        </div>
        <WriteOutcome notice={message?.failed ? null : message?.text} />
        <ImageRequestError message={message?.failed ? message.text : null} />
      </div>
    </fieldset>
  );
}
