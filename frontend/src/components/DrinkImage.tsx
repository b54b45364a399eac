// An uploaded drink image at /uploads/{name}, or a drawn can when a product has no image.
import { uploadUrl } from '../lib/api';

interface DrinkImageProps {
  name: string | undefined;
  alt: string;
  width: number;
  height: number;
  className?: string;
  /** Above the fold: load at once, with high priority. */
  eager?: boolean;
}

export function DrinkImage({ name, alt, width, height, className, eager = false }: DrinkImageProps) {
  return (
    <img
      className={className}
      src={name ? uploadUrl(name) : '/drink.svg'}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      {...(eager ? { fetchPriority: 'high' as const } : {})}
    />
  );
}
