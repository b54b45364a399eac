// The document title, meta description and Open Graph tags per page (index.html carries the tags that never
// change: og:site_name, og:locale, twitter:card).
import { useEffect } from 'react';
import { SITE_NAME } from './brand';
import { isPrerendering, notePageHead } from './prerendering';

export { SITE_NAME };

export const META_DESCRIPTION_MAX = 165;

/** A meta description: whitespace collapsed, at most 165 characters. */
export function metaDescription(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return Array.from(clean).slice(0, META_DESCRIPTION_MAX).join('');
}

export function pageTitle(title: string): string {
  return title ? `${title} | ${SITE_NAME}` : `${SITE_NAME} | Soft drinks delivered across the UK`;
}

/** Sets the title, description and Open Graph tags; `type` is the Open Graph type ('website', 'article'). */
export function setPageMeta(title: string, description: string, type = 'website'): void {
  const fullTitle = pageTitle(title);
  const text = metaDescription(description);
  document.title = fullTitle;
  const tags = [
    ['description', text],
    ['og:title', fullTitle],
    ['og:description', text],
    ['og:type', type],
    ['og:url', window.location.origin + window.location.pathname],
  ];
  for (const [key = '', content = ''] of tags) {
    const attr = key.startsWith('og:') ? 'property' : 'name';
    let tag = document.head.querySelector(`meta[${attr}="${key}"]`);
    if (!tag) {
      tag = document.head.appendChild(document.createElement('meta'));
      tag.setAttribute(attr, key);
    }
    tag.setAttribute('content', content);
  }
}

export function usePageMeta(title: string, description: string, type?: string): void {
  if (isPrerendering()) notePageHead({ title: pageTitle(title), description: metaDescription(description), type: type ?? 'website' });
  useEffect(() => {
    setPageMeta(title, description, type);
  }, [title, description, type]);
}
