// Removing pictures from a saved drink or category (spec section 7): tick the pictures to drop, confirm, and
// they are deleted from storage (POST /api/delete/array/) and the item is saved with the rest (PUT by mode),
// so the shop never lists a picture that no longer exists. `onRemoved` lets the form's image list follow.
import { useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import ui from '../../components/ui.module.css';
import { errorMessage, uploadUrl } from '../../lib/api';
import styles from '../adminScreens.module.css';
import { deleteQuestion } from '../confirm';
import { WriteOutcome } from '../WriteOutcome';
import { AdminImage, ImageRequestError } from './ImageErrors';
import { removePictures } from './upload';

interface PictureRemovalProps {
  mode: number;
  id: string;
  /** The item's pictures as saved. */
  images: readonly string[];
  onRemoved: (keep: string[]) => void;
}

export function PictureRemoval({ mode, id, images, onRemoved }: PictureRemovalProps) {
  const dispatch = useAppDispatch();
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ notice?: string; error?: string } | null>(null);
  // Nothing to remove; but right after removing the last one, say so.
  if (images.length === 0 && !outcome) return null;

  const toggle = (name: string) =>
    setChosen((list) => (list.includes(name) ? list.filter((n) => n !== name) : [...list, name]));

  const remove = async () => {
    if (busy || chosen.length === 0 || !window.confirm(deleteQuestion(chosen.length === 1 ? chosen[0]! : `${chosen.length} pictures`))) return;
    setBusy(true);
    try {
      const keep = await dispatch(removePictures(mode, id, chosen, images.filter((name) => !chosen.includes(name))));
      onRemoved(keep);
      setOutcome({ notice: chosen.length === 1 ? 'The picture is removed.' : `${chosen.length} pictures are removed.` });
      setChosen([]);
    } catch (error) {
      setOutcome({ error: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset className={styles.field} data-testid="picture-removal">
      <legend>Saved pictures</legend>
      <ul className={styles.gallery} aria-label="Saved pictures">
        {images.map((name) => (
          <li key={name} className={styles.tile}>
            <AdminImage src={uploadUrl(name)} alt="" height={80} loading="lazy" />
            <label className={styles.check}>
              <input type="checkbox" checked={chosen.includes(name)} onChange={() => toggle(name)} /> Remove {name}
            </label>
          </li>
        ))}
      </ul>
      <div className={styles.actions}>
        <button type="button" className={`${ui.secondary} ${styles.small}`} onClick={() => void remove()} aria-disabled={busy || chosen.length === 0}>
          {busy ? 'Removing…' : 'Remove selected pictures'}
        </button>
      </div>
      <WriteOutcome notice={outcome?.notice} />
      <ImageRequestError message={outcome?.error} />
    </fieldset>
  );
}
