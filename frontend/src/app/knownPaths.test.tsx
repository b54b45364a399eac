// The known-path rules (knownPaths.json) that the gateway and the CloudFront function apply, held against the
// app's own router: every example and a sample of every rule renders the 404 page exactly when the rules
// call the path unknown. The gateway's and the template's tests read the same examples.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../testing/renderWithProviders';
import { shopApi } from '../testing/shopApi';
import { isKnownPath, KNOWN_PATH_EXAMPLES, KNOWN_PATH_RULES, ruleMatches } from './knownPaths';
import { paths } from './paths';

/** A path a rule's pattern matches: each wildcard filled with a plain segment. */
function sampleOf(pattern: string): string {
  return pattern
    .split('/')
    .map((part) => (part === '**' ? 'a/b' : part === '*' ? 'x1' : part.startsWith('*') ? `x${part.slice(1)}` : part))
    .join('/');
}

async function rendersNotFound(path: string): Promise<boolean> {
  const { unmount } = renderApp(path, { deps: { fetch: shopApi().fetch } });
  // The route table and the page arrive as lazy chunks: wait until a page is on screen (its h1, or the
  // error of a page whose data the fake back end does not have).
  await waitFor(() => expect(screen.queryAllByRole('heading', { level: 1 }).length + screen.queryAllByRole('alert').length).toBeGreaterThan(0), {
    timeout: 5000,
  });
  const notFound = screen.queryByRole('heading', { level: 1, name: 'Page not found' }) !== null;
  unmount();
  return notFound;
}

describe('the known-path rules', () => {
  it('match the examples', () => {
    for (const path of KNOWN_PATH_EXAMPLES.known) expect([path, isKnownPath(path)]).toEqual([path, true]);
    for (const path of KNOWN_PATH_EXAMPLES.unknown) expect([path, isKnownPath(path)]).toEqual([path, false]);
  });

  it('cover every route pattern of the app', () => {
    const patterns = [
      paths.home.pattern,
      paths.shop.pattern,
      paths.product.pattern,
      paths.search.pattern,
      paths.login.pattern,
      paths.policy.pattern,
      paths.reviews.pattern,
      paths.checkout.pattern,
      paths.order.pattern,
      paths.receipt.pattern,
      paths.account.pattern,
      paths.admin.pattern,
    ].map((pattern) => pattern.replace(/:[a-z]+/g, 'x1'));
    patterns.push(paths.about.to(), paths.contact.to(), paths.account.orders.to(), paths.account.profile.to(), paths.admin.to('products'));
    for (const path of patterns) expect([path, isKnownPath(path)]).toEqual([path, true]);
  });

  it('read wildcards as whole segments, suffixes after at least one character, and ignore one trailing slash', () => {
    expect(ruleMatches('/*/*', '/drinks/p-1/')).toBe(true);
    expect(ruleMatches('/*/*', '/drinks//')).toBe(false);
    expect(ruleMatches('/about/*-about-us', '/about/-about-us')).toBe(false);
    expect(ruleMatches('/new/uk/**', '/new/uk')).toBe(true);
    expect(ruleMatches('/checkout', '/checkout?step=2')).toBe(true);
  });
});

describe('the router agrees with the rules', () => {
  const examples = [...KNOWN_PATH_EXAMPLES.known, ...KNOWN_PATH_EXAMPLES.unknown];
  const samples = KNOWN_PATH_RULES.map((rule) => sampleOf(rule.pattern));
  it.each([...new Set([...examples, ...samples])])('%s', async (path) => {
    expect(await rendersNotFound(path)).toBe(!isKnownPath(path));
  });
});
