// Browser journeys for deep links: every drink, category and content page is prerendered
// with its data (scripts/prerender-pages.mjs, run against the shop before the journeys by
// scripts/with-gateway.sh), so with every script blocked a deep link still shows the real page: its heading,
// picture, description, food information, title; never a price, stock or rating, which may have changed since
// the copy was made. With scripts, the app takes the page over without ever showing a loading state, and
// shows the live data: a price changed since the pages were rendered is the new price once the app runs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminHelpers } from './admin.mjs';

export default function registerPrerenderJourneys({ journey, check, checkEqual, eventually, BASE_URL, DESKTOP, MOBILE }) {
  const { api, adminSession } = adminHelpers({ check, eventually, BASE_URL });

  /** A page whose scripts never load: what it shows is the HTML alone. */
  async function withoutScripts(newPage, viewport) {
    const page = await newPage(viewport);
    page.keepCopy = true;
    await page.route(/\.m?js(\?|$)/, (route) => route.abort());
    return page;
  }

  const heading = async (page) => (await page.getByRole('heading', { level: 1 }).textContent({ timeout: 5000 })).trim();

  /**
   * The drinks the prerender wrote a page for (journeys before this one add drinks it has not seen), from the
   * list it left in the shop's own pages folder (scripts/with-gateway.sh says where: PAGES_DIR).
   */
  async function prerenderedDrinks() {
    check(process.env.PAGES_DIR, 'PAGES_DIR names the folder the pages were prerendered into');
    const files = JSON.parse(readFileSync(join(process.env.PAGES_DIR, 'prerendered.json'), 'utf8'));
    const ids = new Set(files.map((file) => /^drinks\/([^/]+)\/index\.html$/.exec(file)?.[1]).filter((id) => id && id !== 'policies'));
    const drinks = (await api('GET', '/api/product/')).filter((drink) => ids.has(drink._id));
    check(drinks.length > 0, `the prerender wrote drink pages (${files.join(', ')})`);
    return drinks;
  }

  journey('deep links to a drink, a category and the content pages show the real page with every script blocked (1280 and 375)', async ({ newPage }) => {
    const [drink] = await prerenderedDrinks();
    const [category] = await api('GET', '/api/category/');
    check(category, 'the shop has a category');
    const policies = await api('GET', '/api/_uk_home/palestine/show/details/website/terms').catch(() => null);

    for (const viewport of [DESKTOP, MOBILE]) {
      const page = await withoutScripts(newPage, viewport);
      await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(drink._id)}`);
      checkEqual(await heading(page), drink.name, `the drink page's heading without scripts (${viewport.width} px)`);
      checkEqual(await page.title(), `${drink.name} | Palestine Drinks`, "the drink page's title without scripts");
      check(await page.getByRole('img', { name: drink.name }).first().isVisible(), "the drink's picture shows without scripts");
      if (drink.des) check((await page.locator('main').textContent()).includes(drink.des), "the drink's description shows without scripts");
      check(await page.getByRole('region', { name: 'Ingredients and nutrition' }).isVisible(), "the drink's food information shows without scripts");
      // The copy may be days old: what changes by the hour (price, stock, ratings) waits for the app.
      checkEqual(await page.locator('main').getByText(/£\d/).count(), 0, 'prices in the copy of the drink page');
      checkEqual(await page.locator('main').getByText(/In stock|Only \d+ left|Sold out/).count(), 0, 'stock lines in the copy of the drink page');
      checkEqual(await page.locator('main [data-pending="price"]').count(), 1, 'the price keeps its place in the copy');
      check(!(await page.getByText('Loading the drink').count()), 'no loading state in the prerendered drink page');
      // Its controls wait for the app: a click or what is typed would be lost when it takes the page over.
      check(await page.getByRole('button', { name: 'Add to basket' }).isDisabled(), 'Add to basket is disabled until the app runs');

      await page.goto(`${BASE_URL}/shop/drinks/?category=${encodeURIComponent(category._id)}`);
      checkEqual(await heading(page), category.name, `the category page's heading without scripts (${viewport.width} px)`);
      checkEqual(await page.title(), `${category.name} | Shop drinks | Palestine Drinks`, "the category page's title without scripts");
      check((await page.getByTestId('drinks-list').getByRole('link').count()) > 0, 'the category lists its drinks without scripts');
      checkEqual(await page.getByTestId('drinks-list').getByText(/£\d|Sold out/).count(), 0, 'prices or stock in the copy of the category page');
      checkEqual(await page.getByTestId('card-rating').count(), 0, 'ratings in the copy of the category page');

      await page.goto(`${BASE_URL}/shop/drinks/`);
      checkEqual(await heading(page), 'Our drinks', "the shop page's heading without scripts");
      check((await page.getByTestId('drinks-list').getByRole('link').count()) > 0, 'the shop lists drinks without scripts');

      await page.goto(`${BASE_URL}/about/drinks-about-us`);
      checkEqual(await heading(page), 'About us', "the about page's heading without scripts");
      await page.goto(`${BASE_URL}/contact/drinks-contact/`);
      checkEqual(await heading(page), 'Contact us', "the contact page's heading without scripts");
      if (policies) {
        await page.goto(`${BASE_URL}/drinks/policies/terms`);
        checkEqual(await heading(page), policies.name, "the terms page's heading without scripts");
      }
      // A path the build has no page for (search, a sorted list) is the app's shell, which needs its script.
      for (const path of ['/drinks/uk?search=cola', '/shop/drinks/?sort=price-asc']) {
        await page.goto(`${BASE_URL}${path}`);
        checkEqual(await page.locator('#root[data-prerendered]').count(), 0, `${path} is not a prerendered page`);
      }
    }
  });

  journey('the app takes a prerendered drink page over without a loading state and shows the live price', async ({ newPage }) => {
    const { token } = await adminSession();
    const products = await prerenderedDrinks();
    const drink = products.find((p) => p.TheNumber > 0) ?? products[0];
    const path = `/api/product/update/${encodeURIComponent(drink._id)}`;
    const livePrice = Math.round((Number(drink.price) + 1.11) * 100) / 100;
    await api('PUT', path, { price: livePrice }, token);
    try {
      const page = await newPage(DESKTOP);
      // Records, from the first byte, whether the page ever shows a loading state or an empty <main>.
      await page.addInitScript(() => {
        window.__sawLoading = [];
        new MutationObserver(() => {
          const main = document.getElementById('main');
          if (!main) return;
          if (/Loading the (drink|page)/.test(main.textContent)) window.__sawLoading.push(main.textContent.slice(0, 80));
          if (!main.textContent.trim()) window.__sawLoading.push('(empty main)');
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(drink._id)}`);
      // The live price replaces the one the page was rendered with, once the app runs.
      await eventually(
        () => page.locator('main').getByText(/£\d/).first().textContent(),
        (text) => text.includes(livePrice.toFixed(2)),
        `the live price £${livePrice.toFixed(2)} on the drink page`,
      );
      checkEqual(await heading(page), drink.name, 'the drink page heading after the app took over');
      checkEqual(await page.locator('#root[data-prerendered]').count(), 0, 'the frame drops the copy marker once the app runs');
      await page.getByRole('button', { name: 'Add to basket' }).click();
      await eventually(async () => (await page.getByTestId('basket-badge').count()) ? (await page.getByTestId('basket-badge').textContent()).trim() : '', (b) => b === '1', 'the basket badge after adding from a prerendered page');
      const seen = await page.evaluate(() => window.__sawLoading);
      checkEqual(seen.length, 0, `loading states or an empty page seen while the app took over: ${JSON.stringify(seen.slice(0, 3))}`);
    } finally {
      await api('PUT', path, { price: drink.price }, token);
    }
  });
}
