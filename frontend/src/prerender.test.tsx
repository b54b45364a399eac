// The build-time first screen: the frame and the home page's hero, in its loading state, as static HTML.
import { describe, expect, it } from 'vitest';
import { render } from './prerender';

describe('prerendered first screen', () => {
  it('holds the banner, the header, a main to fill and the hero', () => {
    const html = render('/');
    expect(html).toContain('The official online store of');
    expect(html).toContain('id="main"');
    expect(html).toContain('Crack one open.');
    expect(html).toContain('Loading featured drinks');
    expect(html).not.toContain('Shop admin');
  });
});
