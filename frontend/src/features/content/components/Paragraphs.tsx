// Stored text as paragraphs: a blank line (or a single line break) starts a new one. A line starting "## "
// is a heading with an anchor of its words ("## Model cancellation form" → #model-cancellation-form), so
// e-mails and pages can link to a part of a policy. `[words](/path)` and `[words](https://…)` are links (the
// privacy notice's to the profile page and the regulator); any other text stays text.
import type { ReactNode } from 'react';
import { Link } from '../../../components/Link';

/** The anchor of a heading's words: lower case, words joined by hyphens. */
export function headingAnchor(words: string): string {
  return words
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const LINK = /\[([^\]\n]+)\]\(((?:\/(?![/\\])|https:\/\/)[^\s()]*)\)/g;

/** A paragraph's text with its `[words](target)` links as links: a shop path inside the app, a web address outside. */
export function withLinks(text: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const [whole, words = '', target = ''] = match;
    const at = match.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(
      target.startsWith('/') ? (
        <Link key={at} to={target}>
          {words}
        </Link>
      ) : (
        <a key={at} href={target} rel="noopener noreferrer">
          {words}
        </a>
      ),
    );
    last = at + whole.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

export function Paragraphs({ text }: { text: string }) {
  const parts = text.split(/\n+/).map((p) => p.trim()).filter(Boolean);
  return (
    <>
      {parts.map((part, i) => {
        if (part.startsWith('## ')) {
          const words = part.slice(3).trim();
          return (
            <h2 key={i} id={headingAnchor(words)}>
              {words}
            </h2>
          );
        }
        return <p key={i}>{withLinks(part)}</p>;
      })}
    </>
  );
}
