// Browser journey for the first page's budget: the home and shop pages never fetch the checkout's
// chunk (the checkout feature and Stripe's libraries), neither at first nor later: not when the footer
// scrolls into view, the basket panel opens, or the rest of the route table is fetched while the browser is
// idle. Which files hold checkout code is read from the build (dist/.vite/chunk-modules.json). Going to
// /checkout afterwards must fetch one, which shows the listening would have seen it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHUNK_MODULES = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', '.vite', 'chunk-modules.json');
const CHECKOUT = /(^|\/)(src\/features\/checkout\/|node_modules\/@stripe\/)/;

/** The built script files ('/assets/CheckoutPage-abc.js') that hold any checkout module. */
function checkoutFiles() {
  const chunks = JSON.parse(readFileSync(CHUNK_MODULES, 'utf8'));
  return new Set(
    Object.entries(chunks)
      .filter(([, modules]) => modules.some((id) => CHECKOUT.test(id)))
      .map(([file]) => `/${file}`),
  );
}

export default function registerBudgetJourneys({ journey, check, eventually, BASE_URL, DESKTOP }) {
  journey('the home and shop pages fetch no checkout chunk, even after scrolling, the basket and idle time; /checkout does', async ({ newPage }) => {
    const checkout = checkoutFiles();
    check(checkout.size > 0, `the build has a checkout chunk (${CHUNK_MODULES})`);
    const page = await newPage(DESKTOP);
    const scripts = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith('.js')) scripts.push(pathname);
    });
    const fetchedCheckout = () => scripts.filter((path) => checkout.has(path));

    for (const path of ['/', '/shop/drinks/']) {
      await page.goto(`${BASE_URL}${path}`);
      await page.getByTestId(path === '/' ? 'featured-drinks' : 'navbar').waitFor();
      // The footer (and on Home the lower part) load as they scroll into view.
      await page.mouse.wheel(0, 20_000);
      await page.getByRole('contentinfo').waitFor();
      // The basket panel loads on intent, then opens.
      await page.getByTestId('basket-button').hover();
      await page.getByTestId('basket-button').click();
      await page.getByRole('dialog').waitFor();
      await page.keyboard.press('Escape');
      // Home fetches the rest of the route table when the browser is idle (at the latest after 2 s).
      await page.waitForTimeout(2500);
      await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
      check(fetchedCheckout().length === 0, `${path} fetched checkout code: ${fetchedCheckout().join(', ')}`);
    }
    check(scripts.some((path) => /\/assets\/pages-[^/]+\.js$/.test(path)), 'the shop page fetched the screens chunk');

    await page.goto(`${BASE_URL}/checkout`);
    await eventually(() => fetchedCheckout().length, (n) => n > 0, `/checkout fetches the checkout chunk (${[...checkout].join(', ')}; fetched ${scripts.join(', ')}; at ${page.url()})`, 10_000);
  });
}
