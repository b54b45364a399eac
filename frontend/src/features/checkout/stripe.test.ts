import { describe, expect, it } from 'vitest';
import { allowedScript, STRIPE_JS_URL } from './stripe';

const origin = 'https://shop.example.co.uk';

describe('which Stripe.js the checkout will load', () => {
  it("takes Stripe's own script and scripts on the shop's origin", () => {
    expect(allowedScript(STRIPE_JS_URL, origin)?.href).toBe(STRIPE_JS_URL);
    expect(allowedScript('/_local/stripe.js', origin)?.href).toBe(`${origin}/_local/stripe.js`);
    expect(allowedScript(`${origin}/_local/stripe.js`, origin)?.href).toBe(`${origin}/_local/stripe.js`);
  });

  it('refuses every other address', () => {
    for (const url of [
      'https://cards.example.com/stripe.js',
      'http://js.stripe.com/v3/',
      'https://js.stripe.com.evil.example/v3/',
      'https://js.stripe.com/v2/',
      '//evil.example/stripe.js',
      'http://shop.example.co.uk/_local/stripe.js',
      'javascript:alert(1)',
      'data:text/javascript,window.Stripe=1',
    ]) {
      expect(allowedScript(url, origin), url).toBeNull();
    }
  });
});
