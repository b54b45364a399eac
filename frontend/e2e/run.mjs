// Browser journeys for the storefront, in Debian's Chromium through playwright-core, against a running shop
// (the local gateway serving frontend/dist and /api). Plain ESM so `node e2e/run.mjs` runs it as is.
//
//   BASE_URL   where the shop is (default http://127.0.0.1:3000)
//   CHROMIUM   the browser binary (default /usr/bin/chromium)
//   JOURNEYS   run only the journeys whose name matches this regular expression (all when unset)
//
// Screenshots go to frontend/test-artifacts/. The last line is `N passed, N failed`; any failure exits 1.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium } from 'playwright-core';
import { registerAdminJourneys } from './admin.mjs';
import registerAdminKeepsJourneys from './adminkeeps.mjs';
import registerAuthJourneys from './auth.mjs';
import registerBasketJourneys from './basket.mjs';
import registerBudgetJourneys from './budget.mjs';
import registerCatalogJourneys from './catalog.mjs';
import registerCheckout from './checkout.mjs';
import registerContentJourneys from './content.mjs';
import registerFocusJourneys from './focus.mjs';
import registerLayoutJourneys from './layout.mjs';
import registerMoneyJourneys from './money.mjs';
import registerNotFoundJourneys from './notfound.mjs';
import registerOpenApiJourneys from './openapi.mjs';
import registerPickerJourneys from './picker.mjs';
import registerPrerenderJourneys from './prerender.mjs';
import registerReviewJourneys from './reviews.mjs';
import registerSpecGapJourneys from './specgaps.mjs';
import registerSubscriptionJourneys from './subscription.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 375, height: 812 };

// ------------------------------------------------------------------------------------------------------
// A small runner: journeys run one after another, each in a fresh browser context.

const journeys = [];
const journey = (name, fn) => journeys.push({ name, fn });

function check(condition, message) {
  if (!condition) throw new Error(message);
}

function checkEqual(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** Retries `read` until `accept` holds or the time runs out (the UI updates asynchronously). */
async function eventually(read, accept, what, timeout = 5000) {
  const until = Date.now() + timeout;
  let last;
  for (;;) {
    last = await read();
    if (accept(last)) return last;
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(last)} after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Pounds shown as '£1,234.50' to a number. */
const pounds = (text) => Number(String(text).replace(/[^0-9.]/g, ''));
const pence = (n) => Math.round(n * 100);

/** Waits for the images in view to arrive (lazy ones below the fold never will), then shoots. */
async function shot(page, name) {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

// ------------------------------------------------------------------------------------------------------
// Steps shared by the journeys

async function openHome(page) {
  await page.goto(`${BASE_URL}/`);
  await page.getByTestId('featured-drinks').waitFor();
}

/** Home -> Shop (through the header) -> the first drink's page; answers the drink's name. */
async function browseToFirstDrink(page) {
  await openHome(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  if (!(await nav.getByRole('link', { name: 'Shop' }).isVisible())) {
    await page.getByRole('button', { name: 'Menu' }).click();
  }
  await nav.getByRole('link', { name: 'Shop' }).click();
  await page.waitForURL(/\/shop\/drinks\/$/);
  const list = page.getByTestId('drinks-list');
  await list.waitFor();
  const first = list.getByRole('link').first();
  await first.click();
  await page.waitForURL(/\/drinks\/[^/]+$/);
  const heading = page.getByRole('heading', { level: 1 });
  await heading.waitFor();
  await page.getByRole('button', { name: 'Add to basket' }).waitFor();
  return (await heading.textContent()).trim();
}

async function badge(page) {
  const el = page.getByTestId('basket-badge');
  return (await el.count()) ? (await el.textContent()).trim() : '';
}

async function openBasket(page) {
  await page.getByTestId('basket-button').click();
  const dialog = page.getByRole('dialog', { name: 'Your basket' });
  await dialog.waitFor();
  return dialog;
}

// ------------------------------------------------------------------------------------------------------
// Journeys: the storefront

journey('home → shop → product → add to basket → badge 1 → panel → quantity up and down → total → remove → empty', async ({ newPage }) => {
  const page = await newPage(DESKTOP);
  const name = await browseToFirstDrink(page);
  checkEqual(await badge(page), '', 'badge before adding');
  await page.getByRole('button', { name: 'Add to basket' }).click();
  await eventually(() => badge(page), (b) => b === '1', 'badge after adding');

  const dialog = await openBasket(page);
  check(await page.getByRole('button', { name: 'Close basket' }).evaluate((el) => el === document.activeElement), 'focus moves into the panel');
  check(await page.evaluate(() => document.body.hasAttribute('data-scroll-locked')), 'page scroll is locked');
  const lines = dialog.getByTestId('cart-line');
  checkEqual(await lines.count(), 1, 'lines in the basket');
  const line = lines.first();
  check((await line.textContent()).includes(name), `the line names ${name}`);
  const image = line.getByRole('img');
  check((await image.getAttribute('src')).startsWith('/uploads/'), 'the line image comes from /uploads/');
  check(await image.evaluate((img) => img.complete && img.naturalWidth > 0), 'the line image loaded');
  // The drinks' sum (the total adds delivery, which changes at the free-delivery threshold).
  const total = () => dialog.getByTestId('cart-goods').textContent().then(pounds);
  const unit = await total();
  check(unit > 0, 'a total in pounds');

  const up = dialog.getByRole('button', { name: `Increase quantity of ${name}` });
  const down = dialog.getByRole('button', { name: `Decrease quantity of ${name}` });
  const qty = () => dialog.locator('output').first().textContent().then((t) => Number(t.trim()));
  await up.click();
  await up.click();
  await eventually(qty, (q) => q === 3, 'quantity after two steps up');
  await eventually(total, (t) => pence(t) === pence(unit) * 3, 'total for 3');
  await down.click();
  await eventually(qty, (q) => q === 2, 'quantity after a step down');
  await eventually(total, (t) => pence(t) === pence(unit) * 2, 'total for 2');
  await down.click();
  // Already at 1: the control is marked unavailable, but a press must still leave it at 1.
  await down.click({ force: true });
  await eventually(qty, (q) => q === 1, 'quantity never below 1');
  checkEqual(await down.getAttribute('aria-disabled'), 'true', 'the step down is marked unavailable at 1');
  checkEqual(pence(await total()), pence(unit), 'total for 1');
  checkEqual((await dialog.getByRole('link', { name: 'check out' }).getAttribute('href')), '/checkout', 'check out link');

  await dialog.getByRole('button', { name: `Remove ${name}` }).click();
  await dialog.getByText('Your cart is empty', { exact: true }).waitFor();
  checkEqual(await dialog.getByRole('link', { name: 'Continue shopping' }).getAttribute('href'), '/shop/drinks/', 'continue shopping link');
  await dialog.getByText('Have an account ?').waitFor();
  checkEqual(await dialog.getByRole('link', { name: 'log in' }).getAttribute('href'), '/drinks/login', 'log in link');
  checkEqual(await badge(page), '', 'badge after removing');

  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  check(await page.getByTestId('basket-button').evaluate((el) => el === document.activeElement), 'focus returns to the basket button');
  check(!(await page.evaluate(() => document.body.hasAttribute('data-scroll-locked'))), 'page scroll unlocked');
});

journey('a reload keeps the basket', async ({ newPage }) => {
  const page = await newPage(DESKTOP);
  const name = await browseToFirstDrink(page);
  await page.getByRole('button', { name: `Increase quantity of ${name}` }).click();
  await page.getByRole('button', { name: 'Add to basket' }).click();
  // The badge counts cases: two of one drink are 2.
  await eventually(() => badge(page), (b) => b === '2', 'badge after adding');
  await page.reload();
  await page.getByRole('heading', { level: 1 }).waitFor();
  await eventually(() => badge(page), (b) => b === '2', 'badge after the reload');
  const dialog = await openBasket(page);
  check((await dialog.getByTestId('cart-line').first().textContent()).includes(name), 'the line survived the reload');
  checkEqual((await dialog.locator('output').first().textContent()).trim(), '2', 'its quantity survived too');
});

journey('at 375 px the burger opens the links', async ({ newPage }) => {
  const page = await newPage(MOBILE);
  await openHome(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const shop = nav.getByRole('link', { name: 'Shop' });
  check(!(await shop.isVisible()), 'links are hidden behind the burger');
  const burger = page.getByRole('button', { name: 'Menu' });
  await burger.click();
  await shop.waitFor({ state: 'visible' });
  checkEqual(await burger.getAttribute('aria-expanded'), 'true', 'burger aria-expanded');
  for (const label of ['About us', 'Reviews', 'Contact']) {
    check(await nav.getByRole('link', { name: label }).isVisible(), `${label} is shown`);
  }
  await burger.click();
  await shop.waitFor({ state: 'hidden' });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 375, `nothing overflows sideways at 375 px (page is ${width} px wide)`);
});

journey('scrolling down hides the navbar, up shows it; the banner shows only at the top', async ({ newPage }) => {
  const page = await newPage(DESKTOP);
  await page.goto(`${BASE_URL}/shop/drinks/`);
  await page.getByTestId('drinks-list').waitFor();
  const navbar = page.getByTestId('navbar');
  const banner = page.getByTestId('store-banner');
  const navTop = () => navbar.evaluate((el) => Math.round(el.getBoundingClientRect().bottom));
  check(await banner.isVisible(), 'banner at the top');
  check((await banner.boundingBox()).y >= 0, 'banner in view at the top');

  await page.mouse.move(640, 400);
  for (let i = 0; i < 6; i += 1) {
    await page.mouse.wheel(0, 150);
    await page.waitForTimeout(60);
  }
  await eventually(() => navbar.getAttribute('data-hidden'), (v) => v === 'true', 'navbar hidden after scrolling down');
  await eventually(navTop, (bottom) => bottom <= 0, 'navbar out of view');
  check((await banner.boundingBox()).y + (await banner.boundingBox()).height <= 0, 'banner scrolled away');

  await page.mouse.wheel(0, -120);
  await eventually(() => navbar.getAttribute('data-hidden'), (v) => v === 'false', 'navbar shown after scrolling up');
  await eventually(navTop, (bottom) => bottom > 0, 'navbar back in view');
});

journey('the product page reads the query string', async ({ newPage }) => {
  const page = await newPage(DESKTOP);
  await openHome(page);
  const href = await page.getByTestId('featured-drinks').getByRole('link').first().getAttribute('href');
  await page.goto(`${BASE_URL}${href}?qty=3`);
  await page.getByRole('button', { name: 'Add to basket' }).waitFor();
  checkEqual((await page.locator('output').first().textContent()).trim(), '3', 'quantity preset from ?qty=3');
  check((await page.title()).length > 0, 'a document title');
  const meta = await page.locator('meta[name="description"]').getAttribute('content');
  check(meta && meta.length <= 165, 'a meta description of at most 165 characters');
});

journey('search links find drinks', async ({ newPage }) => {
  const page = await newPage(DESKTOP);
  await openHome(page);
  const name = (await page.getByTestId('featured-drinks').getByRole('link').first().textContent()).trim();
  const word = name.split(/\s+/)[0];
  await page.goto(`${BASE_URL}/drinks/uk?search=${encodeURIComponent(word)}`);
  const results = page.getByTestId('search-results');
  await results.waitFor();
  check((await results.textContent()).includes(word), `results mention ${word}`);
});

journey('no serious accessibility problems (axe) on home, shop, product and the open basket', async ({ newPage }) => {
  const page = await newPage(DESKTOP);
  const scan = async (where) => {
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    check(bad.length === 0, `${where}: ${bad.map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`).join('; ')}`);
  };
  await openHome(page);
  await scan('home');
  await browseToFirstDrink(page);
  await scan('product');
  await page.getByRole('button', { name: 'Add to basket' }).click();
  await openBasket(page);
  await scan('open basket');
  await page.keyboard.press('Escape');
  await page.goto(`${BASE_URL}/shop/drinks/`);
  await page.getByTestId('drinks-list').waitFor();
  await scan('shop');
});

journey('screenshots: home, product and the open basket at 375 and 1280 px', async ({ newPage }) => {
  for (const [label, viewport] of [['375', MOBILE], ['1280', DESKTOP]]) {
    const page = await newPage(viewport);
    await openHome(page);
    await shot(page, `home-${label}`);
    await browseToFirstDrink(page);
    await shot(page, `product-${label}`);
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await openBasket(page);
    await page.waitForTimeout(300); // the panel's slide-in
    await shot(page, `cart-${label}`);
  }
});

// Journeys: login, account and admin areas
registerAuthJourneys({ journey, check, checkEqual, eventually, shot, BASE_URL, DESKTOP, MOBILE });
registerContentJourneys({ journey, check, checkEqual, eventually, BASE_URL });
registerCatalogJourneys({ journey, check, checkEqual, eventually, shot, BASE_URL, DESKTOP, MOBILE });

// Journeys: checkout, orders and discount codes
registerCheckout({ journey, check, checkEqual, eventually, pounds, pence, BASE_URL, DESKTOP, shot });

// Journeys: customer reviews, the public page and the admin screen
registerReviewJourneys({ journey, check, checkEqual, eventually, BASE_URL });
registerSubscriptionJourneys({ journey, check, checkEqual, eventually, BASE_URL });

// Journeys: per-drink reviews, persisted names, route slugs, picture removal
registerSpecGapJourneys({ journey, check, checkEqual, eventually, BASE_URL });
registerOpenApiJourneys({ journey, check, eventually, BASE_URL });

// Journeys: the real 404, focus and announcements, the checkout on a phone
registerNotFoundJourneys({ journey, check, checkEqual, BASE_URL, DESKTOP, MOBILE });
// Journeys: deep links paint the prerendered page
registerPrerenderJourneys({ journey, check, checkEqual, eventually, BASE_URL, DESKTOP, MOBILE });
registerFocusJourneys({ journey, check, checkEqual, eventually, BASE_URL, DESKTOP, MOBILE, shot });
// Journeys: the first page's budget
registerBudgetJourneys({ journey, check, eventually, BASE_URL, DESKTOP });
// Journeys: the admin area's own frame, dashboard, titles and tables
registerAdminJourneys({ journey, check, checkEqual, eventually, shot, BASE_URL, DESKTOP, MOBILE });
registerMoneyJourneys({ journey, check, checkEqual, eventually, shot, BASE_URL });
// Journeys: pictures by picking on the admin's forms
registerPickerJourneys({ journey, check, checkEqual, eventually, shot, BASE_URL, DESKTOP, MOBILE });
// Journeys: admin layout, 200% zoom, axe on every page
registerLayoutJourneys({ journey, check, eventually, BASE_URL, DESKTOP, MOBILE });
// Journeys: the basket that sells, the shopper's endings, and the admin that keeps paid orders.
registerBasketJourneys({ journey, check, checkEqual, eventually, BASE_URL, DESKTOP, MOBILE });
registerAdminKeepsJourneys({ journey, check, checkEqual, eventually, BASE_URL, DESKTOP, MOBILE });

// ------------------------------------------------------------------------------------------------------

async function main() {
  await mkdir(ARTIFACTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  console.log(`Storefront journeys against ${BASE_URL}`);
  let passed = 0;
  let failed = 0;
  // JOURNEYS=<regular expression> runs only the journeys whose names match (one area while working on it).
  const only = process.env.JOURNEYS ? new RegExp(process.env.JOURNEYS, 'i') : null;
  for (const { name, fn } of journeys.filter((j) => !only || only.test(j.name))) {
    const contexts = [];
    const errors = [];
    const newPage = async (viewport) => {
      const context = await browser.newContext({ viewport, locale: 'en-GB', reducedMotion: 'no-preference' });
      context.setDefaultTimeout(10_000);
      contexts.push(context);
      const page = await context.newPage();
      // A script error on any page fails the journey, even if the page still looks right.
      page.on('pageerror', (error) => errors.push(error.message));
      // The gateway sends the deployed Content-Security-Policy (template.yaml): anything it blocks fails too.
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) errors.push(message.text());
      });
      // A prerendered page (scripts/prerender-pages.mjs) shows before the app runs, its controls disabled: a
      // journey acts on the app, so a load ends once the app has taken the page over (the frame drops the
      // root's data-prerendered). e2e/prerender.mjs looks at the copy itself: it sets keepCopy.
      for (const method of ['goto', 'reload']) {
        const load = page[method].bind(page);
        page[method] = async (...args) => {
          const response = await load(...args);
          if (!page.keepCopy) await page.waitForFunction(() => !document.querySelector('#root[data-prerendered]'), null, { timeout: 10_000 });
          return response;
        };
      }
      return page;
    };
    const started = Date.now();
    try {
      await fn({ newPage });
      if (errors.length) throw new Error(`script errors on the page: ${errors.join(' | ')}`);
      passed += 1;
      console.log(`  ✓ ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed += 1;
      console.log(`  ✗ ${name}\n      ${String(error?.message ?? error).split('\n').join('\n      ')}`);
      const page = contexts.at(-1)?.pages().at(-1);
      if (page) await shot(page, `failed-${journeys.findIndex((j) => j.name === name) + 1}`).catch(() => undefined);
    } finally {
      await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    }
  }
  await browser.close();
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  console.log('0 passed, 1 failed');
  process.exitCode = 1;
});
