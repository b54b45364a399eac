// Browser journeys for the real 404, at 1280 and 375 px under the gateway's CSP: an unknown
// path answers 404 with the 'Page not found' page (checked with a plain fetch too), the pages the app knows
// answer 200, and an unknown drink says so, with status 404, a link to the shop and noindex, without 'Try again'.

export default function register({ journey, check, checkEqual, BASE_URL, DESKTOP, MOBILE }) {
  const sizes = [
    ['1280', DESKTOP],
    ['375', MOBILE],
  ];

  async function noSidewaysScroll(page, width) {
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    check(scrollWidth <= width, `nothing overflows sideways at ${width} px (page is ${scrollWidth} px wide)`);
  }

  journey('404: an unknown path answers status 404 with "Page not found" and links home and to the shop, at 1280 and 375 px', async ({ newPage }) => {
    // A plain fetch, as a crawler or a link checker would ask.
    for (const path of ['/no/such/page', '/about/anything', '/drinks/p-1/extra']) {
      const response = await fetch(`${BASE_URL}${path}`);
      checkEqual(response.status, 404, `status of ${path}`);
      check(response.headers.get('content-type').startsWith('text/html'), `${path} is a page`);
      check((await response.text()).includes('Page not found'), `${path} says "Page not found" before any script runs`);
    }
    for (const path of ['/', '/shop/drinks/', '/drinks/uk?search=cola', '/about/drinks-about-us']) {
      checkEqual((await fetch(`${BASE_URL}${path}`)).status, 200, `status of ${path}`);
    }

    for (const [label, viewport] of sizes) {
      const page = await newPage(viewport);
      const response = await page.goto(`${BASE_URL}/no/such/page-${label}`);
      checkEqual(response.status(), 404, `the browser gets status 404 at ${label} px`);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      checkEqual(await page.getByRole('link', { name: 'Go to the home page' }).getAttribute('href'), '/', 'the link home');
      checkEqual(await page.getByRole('link', { name: 'Browse all drinks' }).getAttribute('href'), '/shop/drinks/', 'the link to the shop');
      checkEqual(await page.locator('meta[name="robots"]').first().getAttribute('content'), 'noindex', 'kept out of search results');
      check((await page.title()).startsWith('Page not found'), `the title says so (${await page.title()})`);
      await noSidewaysScroll(page, viewport.width);
      // Back to the shop from the 404 page.
      await page.getByRole('link', { name: 'Browse all drinks' }).click();
      await page.waitForURL(/\/shop\/drinks\/$/);
      await page.getByTestId('drinks-list').waitFor();
    }
  });

  journey('unknown drink: "Drink not found" with status 404, a link to the shop and noindex, no "Try again", at 1280 and 375 px', async ({ newPage }) => {
    for (const [label, viewport] of sizes) {
      const page = await newPage(viewport);
      const response = await page.goto(`${BASE_URL}/drinks/no-such-drink-${label}`);
      checkEqual(response.status(), 404, `an unknown drink answers 404 at ${label} px`);
      await page.getByRole('heading', { level: 1, name: 'Drink not found' }).waitFor();
      checkEqual(await page.getByRole('link', { name: 'Browse all drinks' }).getAttribute('href'), '/shop/drinks/', 'the link to the shop');
      checkEqual(await page.getByRole('button', { name: 'Try again' }).count(), 0, 'no Try again');
      checkEqual(await page.locator('meta[name="robots"]').first().getAttribute('content'), 'noindex', 'kept out of search results');
      await noSidewaysScroll(page, viewport.width);
      // A real drink afterwards is indexable again.
      await page.getByRole('link', { name: 'Browse all drinks' }).click();
      await page.getByTestId('drinks-list').getByRole('link').first().click();
      await page.getByRole('button', { name: 'Add to basket' }).waitFor();
      checkEqual(await page.locator('meta[name="robots"]').count(), 0, 'no noindex on a real drink');
      checkEqual((await fetch(page.url())).status, 200, 'a real drink answers 200');
    }
  });
}
