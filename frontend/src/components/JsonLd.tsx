// Structured search data for a page: one `<script type="application/ld+json">` (see lib/structuredData.ts).
import { serializeJsonLd } from '../lib/structuredData';

export function JsonLd({ data }: { data: Record<string, unknown> }) {
  // The text is JSON with '<' escaped, so it cannot break out of the script element.
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }} />;
}
