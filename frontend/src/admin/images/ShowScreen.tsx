// /new/uk/show: every uploaded image as a grid of 200 px high previews, newest first, each with its name,
// 'Copy name' and Delete ('do you wnat delete'); and an upload to the
// gallery (PNG, JPEG, WebP or GIF, up to 4 at once, 2 MB each: the server checks the bytes). Failures wear
// the spec's labels: 'error url image' for a preview that does not load, 'error' for a refused request.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { uploadUrl } from '../../lib/api';
import styles from '../adminScreens.module.css';
import {
  ACCEPTED_TYPES,
  deleteImage,
  fetchImages,
  imagesReloadRequested,
  MAX_FILES,
  selectImages,
  uploadToGallery,
} from './imagesSlice';
import { AdminImage, ImageRequestError } from './ImageErrors';
import { DeleteButton, WriteOutcome } from '../WriteOutcome';

export default function ShowScreen() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectImages);
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [copied, setCopied] = useState<string | null>(null);
  const tooMany = files.length > MAX_FILES;

  useEffect(() => {
    if (state.status === 'idle' || state.reload) void dispatch(fetchImages());
  }, [dispatch, state.status, state.reload]);

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (files.length === 0 || tooMany || state.busy) return;
    if (await dispatch(uploadToGallery(files))) {
      setFiles([]);
      if (input.current) input.current.value = '';
    }
  };

  const copy = async (name: string) => {
    try {
      await navigator.clipboard.writeText(name);
      setCopied(name);
    } catch {
      setCopied(null); // no clipboard (an insecure page): the name is on screen to copy by hand
    }
  };

  return (
    <section className={styles.screen} aria-labelledby="images-title">
      <h2 id="images-title" className={ui.sectionTitle}>
        Images
      </h2>
      <form className={styles.toolbar} onSubmit={(e) => void upload(e)} aria-label="Upload images">
        <div className={styles.field}>
          <label htmlFor="image-files">Images to upload (PNG, JPEG, WebP or GIF; up to 4, 2 MB each)</label>
          <input
            ref={input}
            id="image-files"
            type="file"
            accept={ACCEPTED_TYPES}
            multiple
            onChange={(e) => setFiles(Array.from(e.target.files ?? []))}
            aria-invalid={tooMany || undefined}
            aria-describedby={tooMany ? 'image-files-error' : undefined}
          />
          {tooMany && (
            <p id="image-files-error" className={styles.alert}>
              Choose at most {MAX_FILES} images at once.
            </p>
          )}
        </div>
        <button type="submit" className={ui.primary} aria-disabled={files.length === 0 || tooMany || state.busy}>
          {state.busy ? 'Working…' : 'Upload'}
        </button>
      </form>
      <WriteOutcome notice={state.notice} />
      <ImageRequestError message={state.actionError} />
      <StatusView
        status={state.status}
        error={state.error}
        onRetry={() => dispatch(imagesReloadRequested())}
        isEmpty={state.names.length === 0}
        loadingLabel="Loading the images"
        errorTitle="We could not load the images"
        empty={<p>No images yet: upload the first ones above.</p>}
      >
        <ul className={styles.gallery} aria-label="Uploaded images">
          {state.names.map((name) => (
            <li key={name} className={styles.tile} data-testid="gallery-image">
              <AdminImage src={uploadUrl(name)} alt="" height={200} loading="lazy" decoding="async" />
              <code className={styles.name}>{name}</code>
              <div className={styles.actions}>
                <button type="button" className={`${ui.secondary} ${styles.small}`} onClick={() => void copy(name)} aria-label={`Copy name ${name}`}>
                  {copied === name ? 'Copied' : 'Copy name'}
                </button>
                <DeleteButton what={name} disabled={state.busy} onConfirmed={() => void dispatch(deleteImage(name))} />
              </div>
            </li>
          ))}
        </ul>
      </StatusView>
    </section>
  );
}
