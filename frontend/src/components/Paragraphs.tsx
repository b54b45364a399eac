// Stored text as paragraphs: a blank line (or a single line break) starts a new one. A line starting "## "
// is a heading with an anchor of its words ("## Model cancellation form" → #model-cancellation-form), so
// e-mails and pages can link to a part of a policy. `[words](/path)` and `[words](https://…)` are links (the
// privacy notice's to the profile page and the regulator); any other text stays text.
import type { ReactNode } from 'react';
import { Link } from './Link';

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

/**
 * `level` is the headings' level (2 on a page of its own; deeper where the text sits under other headings,
 * as the admin's preview does), and `anchors` gives them their ids (off where the text is only a preview).
 */
export function Paragraphs({ text, level = 2, anchors = true }: { text: string; level?: 2 | 3 | 4 | 5; anchors?: boolean }) {
  const parts = text.split(/\n+/).map((p) => p.trim()).filter(Boolean);
  const Heading = `h${level}` as const;
  return (
    <>
      {parts.map((part, i) => {
        if (part.startsWith('## ')) {
          const words = part.slice(3).trim();
          return (
            <Heading key={i} id={anchors ? headingAnchor(words) : undefined}>
              {words}
            </Heading>
          );
        }
        return <p key={i}>{withLinks(part)}</p>;
      })}
    </>
  );
}
