// The storefront's known paths (knownPaths.json): the rules the local gateway and the CloudFront function
// apply to send a path the app has no page for to the 404 page with status 404. This copy of the matcher
// lets the tests hold the rules against the app's own router (knownPaths.test.tsx).
import table from './knownPaths.json';

export interface PathRule {
  pattern: string;
  page: boolean;
}

export const KNOWN_PATH_RULES: readonly PathRule[] = table.rules;
export const KNOWN_PATH_EXAMPLES = table.examples;

/** A path's segments: the query string dropped, one trailing slash ignored ('/' has none). */
function segmentsOf(path: string): string[] {
  let clean = path.split('?')[0] ?? '';
  if (clean.length > 1 && clean.endsWith('/')) clean = clean.slice(0, -1);
  return clean === '/' || clean === '' ? [] : clean.slice(1).split('/');
}

export function ruleMatches(pattern: string, path: string): boolean {
  const segments = segmentsOf(path);
  const parts = segmentsOf(pattern);
  for (const [i, part] of parts.entries()) {
    if (part === '**') return true;
    const segment = segments[i];
    if (segment === undefined) return false;
    if (part === '*') {
      if (segment === '') return false;
    } else if (part.startsWith('*')) {
      const suffix = part.slice(1);
      if (segment.length <= suffix.length || !segment.endsWith(suffix)) return false;
    } else if (segment !== part) {
      return false;
    }
  }
  return segments.length === parts.length;
}

/** True when the app has a page at `path`: the first rule that matches says so; no rule, no page. */
export function isKnownPath(path: string): boolean {
  return KNOWN_PATH_RULES.find((rule) => ruleMatches(rule.pattern, path))?.page ?? false;
}
