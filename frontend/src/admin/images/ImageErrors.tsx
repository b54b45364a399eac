// The spec's labels for image failures (section 8): 'error url image' in place of a picture whose address
// does not load, and 'error' before the message of a failed image request (upload, delete, removal).
import { useState, type ImgHTMLAttributes } from 'react';
import styles from '../adminScreens.module.css';
import { IMAGE_REQUEST_ERROR, IMAGE_URL_ERROR } from './upload';

/** An <img> that shows 'error url image' instead when its address fails. */
export function AdminImage(props: ImgHTMLAttributes<HTMLImageElement> & { src: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === props.src) {
    return (
      <span className={styles.alert} role="img" aria-label={`${IMAGE_URL_ERROR}: ${props.src}`} data-testid="image-url-error">
        {IMAGE_URL_ERROR}
      </span>
    );
  }
  return <img {...props} alt={props.alt} onError={() => setFailed(props.src)} />;
}

/** A failed image request: the spec's 'error' label, then what the server said. */
export function ImageRequestError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className={styles.alert} role="alert">
      <strong>{IMAGE_REQUEST_ERROR}</strong>: {message}
    </p>
  );
}
