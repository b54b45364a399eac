// The document title, meta description and Open Graph tags per page.
import { useEffect } from 'react';
import { metaDescription } from './format';

export const SITE_NAME = 'Palestine Drinks';

export function pageTitle(title: string): string {
  return title ? `${title} | ${SITE_NAME}` : `${SITE_NAME} | Soft drinks delivered across the UK`;
}

/** Sets `<meta {attr}="{key}" content>`, adding the tag when index.html does not carry it. */
function setMetaTag(attr: 'name' | 'property', key: string, content: string): void {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!tag) {
    tag = document.createElement('meta');
    tag.setAttribute(attr, key);
    document.head.appendChild(tag);
  }
  tag.setAttribute('content', content);
}

export interface PageMetaExtra {
  /** Open Graph type: 'website' unless said otherwise ('article', 'product'). */
  type?: string;
  /** An absolute or site-relative image for link previews. */
  image?: string | undefined;
}

export function setPageMeta(title: string, description: string, extra: PageMetaExtra = {}): void {
  const fullTitle = pageTitle(title);
  const text = metaDescription(description);
  document.title = fullTitle;
  setMetaTag('name', 'description', text);
  setMetaTag('property', 'og:title', fullTitle);
  setMetaTag('property', 'og:description', text);
  setMetaTag('property', 'og:type', extra.type ?? 'website');
  setMetaTag('property', 'og:site_name', SITE_NAME);
  setMetaTag('property', 'og:locale', 'en_GB');
  setMetaTag('property', 'og:url', window.location.origin + window.location.pathname);
  if (extra.image) setMetaTag('property', 'og:image', new URL(extra.image, window.location.origin).toString());
  setMetaTag('name', 'twitter:card', extra.image ? 'summary_large_image' : 'summary');
}

export function usePageMeta(title: string, description: string, extra: PageMetaExtra = {}): void {
  const { type, image } = extra;
  useEffect(() => {
    setPageMeta(title, description, { ...(type ? { type } : {}), image });
  }, [title, description, type, image]);
}
