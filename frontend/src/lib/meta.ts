// The document title and meta description per page.
import { useEffect } from 'react';
import { metaDescription } from './format';

export const SITE_NAME = 'Palestine Drinks';

export function pageTitle(title: string): string {
  return title ? `${title} | ${SITE_NAME}` : `${SITE_NAME} | Soft drinks delivered across the UK`;
}

export function setPageMeta(title: string, description: string): void {
  document.title = pageTitle(title);
  // index.html carries the tag; a page only changes its content.
  document.querySelector('meta[name="description"]')?.setAttribute('content', metaDescription(description));
}

export function usePageMeta(title: string, description: string): void {
  useEffect(() => {
    setPageMeta(title, description);
  }, [title, description]);
}
