// Browser journeys for the admin's layout at 200% zoom and the suite's accessibility scan: the results page's
// e-mail list, the mailer after a send, the reviews table's Delete buttons, the admin menu under anything
// sticky, every admin screen at 200% zoom (640 css px), and axe-core (WCAG 2.2 AA) on every public page and
// every admin screen at 1280 and 375 px with 0 violations.
import AxeBuilder from '@axe-core/playwright';
import { adminHelpers } from './admin.mjs';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** 1280 css px at 200% zoom. */
const ZOOMED = { width: 640, height: 450 };

/** Every violation on the page as it is now, one readable line each (empty when none). */
export async function axeViolations(page, where) {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return violations.map((v) => `${where}: ${v.id} [${v.impact}] ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export default function register({ journey, check, eventually, BASE_URL, DESKTOP, MOBILE }) {
  const { api, adminPage, adminSession, paidOrder, orderPage, receiptPage } = adminHelpers({ check, eventually, BASE_URL });
  const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  /** The admin screens as the menu lists them (ADMIN_MENU), read from the page's own menu. */
  async function adminScreens(page) {
    await page.goto(`${BASE_URL}/new/uk/`);
    await page.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Admin', includeHidden: true });
    return nav.getByRole('link', { includeHidden: true }).evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  }

  /** A screen loaded: its heading shown and no loading view left. */
  async function settle(page) {
    await page.getByRole('main').getByRole('heading', { level: 2 }).first().waitFor();
    await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
    await eventually(() => page.locator('[aria-busy="true"]').count(), (n) => n === 0, 'the screen loaded', 8000);
  }

  const sideways = (page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));

  journey('admin layout: the results e-mail list does not overlap, the mailer after a send fits the window, the reviews Delete buttons show whole, nothing covers the admin menu', async ({ newPage }) => {
    // A customer with a long unbroken address (the e-mail list's worst case), and their review.
    const [drink] = (await api('GET', '/api/product/')).filter((d) => d.TheNumber >= 3);
    const long = `a.very.long.customer.address.that.goes.on.${tag()}@example.com`;
    await paidOrder(long, drink._id);
    await api('POST', '/api/reviews/create/', { rating: 4, comment: `Fizzy ${'and'.repeat(40)}`, fullname: 'Layout Tester', email: long, products: drink._id });

    for (const viewport of [DESKTOP, MOBILE]) {
      const page = await adminPage(async () => newPage(viewport));
      const w = viewport.width;

      // Results: each address stays inside its own column.
      await page.goto(`${BASE_URL}/new/uk/result`);
      const list = page.getByTestId('results-emails');
      await list.getByText(long).waitFor();
      const spilling = await list.getByRole('listitem').evaluateAll((items) =>
        items.filter((li) => li.scrollWidth > li.clientWidth + 1).map((li) => li.textContent),
      );
      check(spilling.length === 0, `${w} px: e-mail addresses spill out of their column: ${spilling.slice(0, 3).join(', ')}`);

      // Reviews: the page keeps to the window, and each Delete button, scrolled to, shows whole in its box.
      await page.goto(`${BASE_URL}/new/uk/reviews`);
      await page.getByTestId('admin-review').first().waitFor();
      const deletes = page.getByRole('button', { name: /^Delete the review by/ });
      for (const i of [0, (await deletes.count()) - 1]) {
        await deletes.nth(i).scrollIntoViewIfNeeded();
        const whole = await deletes.nth(i).evaluate((b) => {
          const r = b.getBoundingClientRect();
          const box = b.closest('[role="region"]')?.getBoundingClientRect() ?? { left: 0, right: window.innerWidth };
          return r.left >= Math.max(box.left, 0) - 1 && r.right <= Math.min(box.right, window.innerWidth) + 1;
        });
        check(whole, `${w} px: a Delete button is cut off`);
      }
      const { scroll, inner } = await sideways(page);
      check(scroll <= inner, `${w} px: the reviews page is ${scroll} px wide in a ${inner} px window`);

      // Mailer: a letter with long unbroken words is sent; the page stays as wide as the window.
      const word = `Unbroken${'x'.repeat(160)}`;
      await page.goto(`${BASE_URL}/new/uk/mailer`);
      await page.getByRole('heading', { level: 2, name: 'Mailer' }).waitFor();
      await page.getByRole('checkbox', { name: /^Special selection/ }).check();
      await page.getByLabel('Subject').fill(`Layout ${tag()} ${word}`);
      await page.getByLabel('Title').fill(word);
      await page.getByLabel('Description').fill(`${word} ${word}`);
      await page.getByRole('button', { name: 'Show letter' }).click();
      await page.getByTestId('letter-preview').waitFor();
      const preview = await sideways(page);
      check(preview.scroll <= preview.inner, `${w} px: the letter preview is ${preview.scroll} px wide in a ${preview.inner} px window`);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Send Mail' }).click();
      await page.getByTestId('mailing-status').waitFor({ timeout: 15000 });
      await page.getByTestId('past-mailing').filter({ hasText: word }).first().waitFor();
      const sent = await sideways(page);
      check(sent.scroll <= sent.inner, `${w} px: after a send the mailer is ${sent.scroll} px wide in a ${sent.inner} px window`);

      // The admin menu: each link's centre is the link itself, not something laid over it (axe target-size).
      if (viewport === MOBILE) await page.getByRole('button', { name: 'Menu' }).click();
      for (const y of [0, 400, 5000]) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        const covered = await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').evaluateAll((links) =>
          links
            .map((a) => {
              const r = a.getBoundingClientRect();
              if (r.bottom <= 0 || r.top >= window.innerHeight) return null;
              const top = Math.max(r.top, 0);
              const hit = document.elementFromPoint(r.left + r.width / 2, top + (Math.min(r.bottom, window.innerHeight) - top) / 2);
              return hit && !a.contains(hit) ? `${a.textContent} (under ${hit.tagName.toLowerCase()}.${hit.className})` : null;
            })
            .filter(Boolean),
        );
        check(covered.length === 0, `${w} px, scrolled to ${y}: admin menu links covered: ${covered.join(', ')}`);
      }
      const found = await axeViolations(page, `${w} px mailer after a send`);
      check(found.length === 0, found.join('\n'));
      await page.close();
    }
  });

  journey('admin at 200% zoom (640 px): no screen scrolls sideways; a table scrolls in its own labelled, focusable box', async ({ newPage }) => {
    const page = await adminPage(async () => newPage(ZOOMED));
    const screens = await adminScreens(page);
    check(screens.length >= 17, `the admin menu lists the screens (${screens.length})`);
    const problems = [];
    for (const href of screens) {
      await page.goto(`${BASE_URL}${href}`);
      await settle(page);
      const { scroll, inner } = await sideways(page);
      if (scroll > inner) {
        const culprit = await page.evaluate(() =>
          [...document.querySelectorAll('main *')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && el.parentElement.getBoundingClientRect().right <= window.innerWidth + 1)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
            .slice(0, 3)
            .join(', '),
        );
        problems.push(`${href}: ${scroll} px wide in ${inner} px (${culprit})`);
      }
      const boxes = await page.locator('main table').evaluateAll((tables) =>
        tables.map((table) => {
          let box = table.parentElement;
          while (box && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
          if (!box || box.tagName === 'HTML' || box.tagName === 'BODY') return 'a table without its own scrolling box';
          if (box.tabIndex < 0) return 'a table box that the keyboard cannot reach';
          if (!box.getAttribute('aria-label') && !box.getAttribute('aria-labelledby')) return 'a table box without a label';
          return null;
        }),
      );
      for (const problem of boxes.filter(Boolean)) problems.push(`${href}: ${problem}`);
    }
    check(problems.length === 0, `at 640 px:\n${problems.join('\n')}`);
  });

  journey('axe (WCAG 2.2 AA) on every public page and every admin screen at 1280 and 375 px: 0 violations', async ({ newPage }) => {
    const drinks = (await api('GET', '/api/product/')).filter((d) => d.TheNumber >= 3 && d.minimumAge == null);
    const drink = drinks[0];
    const categories = await api('GET', '/api/category/');
    const policies = await api('GET', '/api/policy/').catch(() => []);
    const orderId = await paidOrder(`axe_${tag()}@example.com`, drink._id);
    const { token } = await adminSession();
    check(Boolean(token), 'an admin session');

    const category = categories[0]?.name ?? drink.category;
    const policy = (Array.isArray(policies) ? policies : policies.policies ?? [])[0]?._id;
    const publicPages = [
      ['home', '/', (p) => p.getByTestId('featured-drinks').waitFor()],
      ['shop', '/shop/drinks/', (p) => p.getByTestId('drinks-list').waitFor()],
      ['a category', `/shop/drinks/?category=${encodeURIComponent(category)}`, (p) => p.getByRole('heading', { level: 1 }).waitFor()],
      ['a drink', `/drinks/${encodeURIComponent(drink._id)}`, (p) => p.getByRole('button', { name: 'Add to basket' }).waitFor()],
      ['search', '/drinks/uk?search=a', (p) => p.getByRole('heading', { level: 1 }).waitFor()],
      ['login', '/drinks/login', (p) => p.getByRole('textbox', { name: 'E-mail address' }).waitFor()],
      ['about', '/about/drinks-about-us', (p) => p.getByRole('heading', { level: 1 }).waitFor()],
      ['contact', '/contact/drinks-contact/', (p) => p.getByRole('heading', { level: 1 }).waitFor()],
      ...(policy ? [['a policy', `/drinks/policies/${encodeURIComponent(policy)}`, (p) => p.getByRole('heading', { level: 1 }).waitFor()]] : []),
      ['the order page', orderPage(orderId), (p) => p.getByTestId('order-total').waitFor()],
      ['the order page by its bare id', `/myorder/${encodeURIComponent(orderId)}`, (p) => p.getByTestId('order-progress-only').waitFor()],
      ['the receipt', receiptPage(orderId), (p) => p.getByTestId('receipt-vat').waitFor()],
      ['the 404', '/no/such/page', (p) => p.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor()],
    ];

    const found = [];
    for (const viewport of [DESKTOP, MOBILE]) {
      const w = viewport.width;
      const page = await newPage(viewport);
      for (const [name, path, ready] of publicPages) {
        await page.goto(`${BASE_URL}${path}`);
        await ready(page);
        await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
        found.push(...(await axeViolations(page, `${w} px ${name}`)));
      }
      // The basket (open, with a drink) and the checkout holding it.
      await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(drink._id)}`);
      await page.getByRole('button', { name: 'Add to basket' }).click();
      await page.getByTestId('basket-button').click();
      await page.getByRole('dialog', { name: 'Your basket' }).waitFor();
      // The drawer slides in over a backdrop that fades in: contrast is judged once both have settled.
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      found.push(...(await axeViolations(page, `${w} px the open basket`)));
      await page.goto(`${BASE_URL}/checkout`);
      await page.getByLabel('Full name').waitFor();
      await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
      found.push(...(await axeViolations(page, `${w} px checkout`)));
      await page.close();

      const admin = await adminPage(async () => newPage(viewport));
      for (const href of await adminScreens(admin)) {
        await admin.goto(`${BASE_URL}${href}`);
        await settle(admin);
        found.push(...(await axeViolations(admin, `${w} px ${href}`)));
      }
      await admin.goto(`${BASE_URL}/new/uk/order/${encodeURIComponent(orderId)}`);
      await admin.getByTestId('admin-order-facts').waitFor();
      found.push(...(await axeViolations(admin, `${w} px the admin order view`)));
      await admin.close();
    }
    check(found.length === 0, `${found.length} accessibility violations:\n${found.join('\n')}`);
  });
}
