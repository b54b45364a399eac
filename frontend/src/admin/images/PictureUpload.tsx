// New pictures for a saved item (a drink, a category, a link entry, the site info): stored and appended to
// the item on the server at once (POST /api/new/?mode=N&id=ID); `onUploaded` lets the form's image list follow,
// so a later save keeps them.
import { useRef, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import ui from '../../components/ui.module.css';
import { errorMessage } from '../../lib/api';
import styles from '../adminScreens.module.css';
import { WriteOutcome } from '../WriteOutcome';
import { ImageRequestError } from './ImageErrors';
import { ACCEPTED_TYPES, MAX_FILES, uploadToItem } from './upload';

/** A form's comma-separated image list without `names`. */
export const withoutNames = (list: string, names: readonly string[]): string =>
  list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name && !names.includes(name))
    .join(', ');

/** A form's comma-separated image list with `names` added at the end. */
export const withNames = (list: string, names: string[]): string => [list.trim(), ...names].filter(Boolean).join(', ');

interface PictureUploadProps {
  mode: number;
  id: string;
  /** The item, as the success message names it ('the drink'). */
  what: string;
  onUploaded: (names: string[]) => void;
}

export function PictureUpload({ mode, id, what, onUploaded }: PictureUploadProps) {
  const dispatch = useAppDispatch();
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const upload = async () => {
    if (busy || files.length === 0) return;
    if (files.length > MAX_FILES) {
      setMessage({ text: `Choose at most ${MAX_FILES} pictures at once.`, failed: true });
      return;
    }
    setBusy(true);
    try {
      const names = await dispatch(uploadToItem(mode, id, files));
      onUploaded(names);
      setMessage({ text: `${names.length === 1 ? 'The picture is' : `${names.length} pictures are`} added to ${what}.`, failed: false });
      setFiles([]);
      if (input.current) input.current.value = '';
    } catch (error) {
      setMessage({ text: errorMessage(error), failed: true });
    } finally {
      setBusy(false);
    }
  };

  const inputId = `pictures-${mode}-${id}`;
  return (
    <div className={styles.field}>
      <label htmlFor={inputId}>Add pictures (PNG, JPEG, WebP or GIF; up to 4, 2 MB each)</label>
      <div className={styles.actions}>
        <input ref={input} id={inputId} type="file" accept={ACCEPTED_TYPES} multiple onChange={(e) => setFiles(Array.from(e.target.files ?? []))} />
        <button type="button" className={`${ui.secondary} ${styles.small}`} onClick={() => void upload()} aria-disabled={busy || files.length === 0}>
          {busy ? 'Uploading…' : 'Upload pictures'}
        </button>
      </div>
      <WriteOutcome notice={message?.failed ? null : message?.text} />
      <ImageRequestError message={message?.failed ? message.text : null} />
    </div>
  );
}
