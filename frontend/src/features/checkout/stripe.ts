// Stripe.js for the checkout, loaded only when /checkout opens (@stripe/stripe-js/pure injects nothing on
// import). The orders function says which script to use: in AWS Stripe's own (`https://js.stripe.com/v3/`,
// which loadStripe injects itself); locally the gateway's stand-in on the shop's own origin, which is loaded
// here first so that loadStripe finds `window.Stripe` and uses it. Any other address is refused: the page's
// card fields must come from Stripe or, locally, from the shop itself.
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { ApiClient, Schemas } from '../../lib/api';

export type PaymentSettings = Pick<Schemas['PaymentSettings'], 'publishableKey' | 'jsUrl'>;

export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

/** Where the settings say Stripe.js lives, if it is an address the checkout will load. */
export function allowedScript(jsUrl: string, origin: string = window.location.origin): URL | null {
  let url: URL;
  try {
    url = new URL(jsUrl, origin);
  } catch {
    return null;
  }
  if (url.href === STRIPE_JS_URL) return url;
  if (url.origin === origin && url.protocol === new URL(origin).protocol) return url;
  return null;
}

/** The settings the checkout can use: a shop with no Stripe key set answers an empty one. */
function checkedSettings(settings: PaymentSettings | null | undefined): PaymentSettings {
  if (typeof settings?.publishableKey !== 'string' || !settings.publishableKey.startsWith('pk_') || typeof settings.jsUrl !== 'string') {
    throw new Error('The payment settings are incomplete: try again later');
  }
  return { publishableKey: settings.publishableKey, jsUrl: settings.jsUrl };
}

const loadedScripts = new Map<string, Promise<void>>();

/** Adds a same-origin script once; resolves when it has run. */
function loadScript(src: string): Promise<void> {
  let loading = loadedScripts.get(src);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.addEventListener('load', () => resolve());
      script.addEventListener('error', () => {
        loadedScripts.delete(src);
        script.remove();
        reject(new Error('The card fields could not be loaded'));
      });
      document.head.appendChild(script);
    });
    loadedScripts.set(src, loading);
  }
  return loading;
}

/** The page's Stripe object, from the orders function's settings. Rejects with a message for the shopper. */
export async function loadCheckoutStripe(api: ApiClient): Promise<Stripe> {
  const settings = checkedSettings(await api.get('/order/payment-settings/'));
  const script = allowedScript(settings.jsUrl);
  if (!script) throw new Error('The card fields could not be loaded safely: please contact the shop');
  // A stand-in on the shop's origin: run it first, so loadStripe uses its window.Stripe instead of Stripe's.
  if (script.href !== STRIPE_JS_URL && !('Stripe' in window)) await loadScript(script.href);
  const stripe = await loadStripe(settings.publishableKey).catch(() => null);
  if (!stripe) throw new Error('The card fields could not be loaded');
  return stripe;
}
