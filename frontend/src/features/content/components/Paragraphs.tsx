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
        return <p key={i}>{part}</p>;
      })}
    </>
  );
}
