// Stored text as paragraphs: a blank line (or a single line break) starts a new one. A line starting "## "
// is a heading with an anchor of its words ("## Model cancellation form" → #model-cancellation-form), so
// e-mails and pages can link to a part of a policy.

/** The anchor of a heading's words: lower case, words joined by hyphens. */
export function headingAnchor(words: string): string {
  return words
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
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
        return <p key={i}>{part}</p>;
      })}
    </>
  );
}
