// Stored text as paragraphs: a blank line (or a single line break) starts a new one.
export function Paragraphs({ text }: { text: string }) {
  const parts = text.split(/\n+/).map((p) => p.trim()).filter(Boolean);
  return (
    <>
      {parts.map((part, i) => (
        <p key={i}>{part}</p>
      ))}
    </>
  );
}
