// Browser journeys for focus and announcements and the checkout on a phone, at
// 1280 and 375 px under the gateway's CSP. A keyboard-only checkout: a refused submit puts focus on the first
// field to fix; a declined card (4000 0000 0000 0341: localstripe declines 0002 only for a Customer) and a
// failed or escaped 3-D Secure check put it on the message, in view; a route change puts it on the new
// page's h1 and the title is announced. Every page's headings go down one level at a time; empty stars keep
// 3:1 contrast; the newsletter form starts clean.

import { adminHelpers } from './admin.mjs';

const DECLINED = '4000 0000 0000 0341';
const THREE_D_SECURE = '4000 0027 6000 3184';
const VISA = '4242 4242 4242 4242';

function futureExpiry() {
  const now = new Date();
  return `${String(now.getMonth() + 1).padStart(2, '0')}/${String((now.getFullYear() + 2) % 100).padStart(2, '0')}`;
}

export default function register({ journey, check, checkEqual, eventually, BASE_URL, DESKTOP, MOBILE, shot }) {
  const { adminPage } = adminHelpers({ check, eventually, BASE_URL });
  const sizes = [
    ['1280', DESKTOP],
    ['375', MOBILE],
  ];

  /** What has focus: an element's tag, id, test id and text. */
  const focused = (page) =>
    page.evaluate(() => {
      const el = document.activeElement;
      return { tag: el?.tagName ?? '', id: el?.id ?? '', testId: el?.getAttribute('data-testid') ?? '', text: (el?.textContent ?? '').trim().slice(0, 80) };
    });

  /** The focused element is wholly inside the window (not under the fold, not scrolled away). */
  const focusInView = (page) =>
    page.evaluate(() => {
      const r = document.activeElement.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
    });

  /** After a route change: focus on the new page's h1, and its title in the polite live region. */
  async function landedOnHeading(page, heading, what) {
    const now = await eventually(() => focused(page), (f) => f.tag === 'H1' && (!heading || f.text === heading), `${what}: focus on the page's h1`);
    const title = await page.title();
    await eventually(() => page.getByTestId('route-announcer').textContent(), (t) => t === title, `${what}: the title announced`);
    checkEqual(await page.getByTestId('route-announcer').getAttribute('aria-live'), 'polite', 'the announcer is polite');
    return now.text;
  }

  /** Types into a field the way a keyboard does: focus it, select what is there, type over it. */
  async function typeInto(page, label, text) {
    await page.getByLabel(label, { exact: true }).focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(text);
  }

  /** Presses the Pay button from the keyboard. */
  async function pressPay(page) {
    // The button waits for the server's quote: its name then holds the total.
    await page.getByRole('button', { name: /^Pay £/ }).waitFor();
    await page.getByRole('button', { name: /^Pay / }).focus();
    await page.keyboard.press('Enter');
  }

  /** Scrolls to the bottom in steps so what loads near the fold (footer, reviews) arrives. */
  async function loadWholePage(page) {
    for (let i = 0; i < 12; i += 1) {
      const atEnd = await page.evaluate(() => {
        window.scrollBy(0, window.innerHeight);
        return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
      });
      await page.waitForTimeout(150);
      if (atEnd) break;
    }
    await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  }

  /** The page's headings as assistive technology meets them, in document order. */
  const outline = (page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')]
        .filter((el) => !el.closest('[aria-hidden="true"], [hidden], dialog:not([open])') && getComputedStyle(el).display !== 'none')
        .map((el) => ({ level: Number(el.getAttribute('aria-level') ?? el.tagName.slice(1)), text: el.textContent.trim().slice(0, 40) })),
    );

  /** One h1, the first heading of the page, and no heading more than one level below the one before it. */
  async function headingsInOrder(page, where) {
    await loadWholePage(page);
    const headings = await outline(page);
    const shown = headings.map((h) => `h${h.level} ${h.text}`).join(' | ');
    checkEqual(headings.filter((h) => h.level === 1).length, 1, `${where}: one h1 (${shown})`);
    checkEqual(headings[0]?.level, 1, `${where}: the h1 comes first (${shown})`);
    headings.forEach((h, i) => {
      if (i > 0) check(h.level <= headings[i - 1].level + 1, `${where}: "${h.text}" (h${h.level}) skips a level after h${headings[i - 1].level} (${shown})`);
    });
  }

  async function someDrink() {
    const drinks = await (await fetch(`${BASE_URL}/api/product/`)).json();
    // Not an age-restricted drink: its checkout would ask a date of birth this journey does not give.
    const drink = drinks.find((d) => d.TheNumber >= 5 && d.minimumAge == null);
    check(drink, 'a drink in stock');
    return drink;
  }

  for (const [label, viewport] of sizes) {
    journey(`keyboard-only checkout at ${label} px: refused submit → first field; declined card → the message; 3-D Secure fails → the message; route change → the heading`, async ({ newPage }) => {
      const drink = await someDrink();
      const page = await newPage(viewport);
      await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(drink._id)}`);
      await page.getByRole('button', { name: 'Add to basket' }).focus();
      await page.keyboard.press('Enter');
      await eventually(() => page.getByTestId('basket-badge').textContent().catch(() => ''), (t) => t === '1', 'one in the basket');

      // To the checkout from the basket panel: a route change, so focus lands on the page's heading.
      await page.getByTestId('basket-button').focus();
      await page.keyboard.press('Enter');
      const panel = page.getByRole('dialog', { name: 'Your basket' });
      await panel.waitFor();
      await panel.getByRole('link', { name: 'check out' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/checkout$/);
      await landedOnHeading(page, 'Checkout', 'the checkout');
      await page.getByLabel('Card number').waitFor();

      // Item 4: the summary and the discount box come before the Pay button, in the document and, on a
      // phone, on the screen; on a wide screen the summary stands beside the forms.
      const pay = page.getByRole('button', { name: /^Pay / });
      const summary = page.getByRole('heading', { name: 'Order summary' });
      const code = page.getByLabel('Discount code');
      const before = (a, b) => a.evaluate((x, y) => Boolean(x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING), b);
      check(await before(summary, await pay.elementHandle()), 'the summary comes before Pay in the document');
      check(await before(code, await pay.elementHandle()), 'the discount box comes before Pay in the document');
      const [payBox, summaryBox, codeBox] = [await pay.boundingBox(), await summary.boundingBox(), await code.boundingBox()];
      if (viewport.width <= 600) {
        check(summaryBox.y + summaryBox.height <= payBox.y && codeBox.y + codeBox.height <= payBox.y, 'on a phone the summary and the discount box are above Pay');
        await shot(page, 'checkout-order-375');
      } else {
        check(summaryBox.x > payBox.x + payBox.width / 2, 'on a wide screen the summary stands to the right');
      }

      // A submit with nothing filled in: focus on the first field to fix, in view, its error read with it.
      await pressPay(page);
      await eventually(() => focused(page), (f) => f.id === 'fullname', 'focus on Full name after a refused submit');
      check(await focusInView(page), 'the field to fix is in view');
      await page.getByText('Please check the highlighted fields.').waitFor();
      checkEqual(await page.getByText('Please check the highlighted fields.').getAttribute('role'), 'alert', 'the refusal is announced');

      await page.keyboard.type(`Key Board ${label}`);
      await typeInto(page, 'Address line 1', '12 Olive Street');
      await typeInto(page, 'Town or city', 'Leeds');
      await typeInto(page, 'Postcode', 'LS1 4AB');
      await typeInto(page, 'Phone', '07700 900123');
      await typeInto(page, 'E-mail', `keys_${label}_${Date.now()}@example.com`);
      await typeInto(page, 'Card number', DECLINED);
      await typeInto(page, 'Expiration date (MM/YY)', futureExpiry());
      await typeInto(page, 'Security code', '123');

      // Declined: focus on the message, which is announced and in view.
      await pressPay(page);
      const message = page.getByTestId('checkout-error');
      await message.waitFor({ timeout: 15_000 });
      check(/declined/i.test(await message.textContent()), 'the decline reason');
      checkEqual(await message.getAttribute('role'), 'alert', 'the message is announced');
      await eventually(() => focused(page), (f) => f.testId === 'checkout-error', 'focus on the decline message');
      check(await focusInView(page), 'the decline message is in view');

      // 3-D Secure: failed at 1280 px (the bank's Fail, from the keyboard), escaped at 375 px; focus back on the message.
      await typeInto(page, 'Card number', THREE_D_SECURE);
      await pressPay(page);
      const challenge = page.getByRole('dialog', { name: 'Confirm this payment with your bank' });
      await challenge.waitFor({ timeout: 15_000 });
      if (viewport.width > 600) {
        await challenge.getByRole('button', { name: 'Fail' }).focus();
        await page.keyboard.press('Enter');
      } else {
        await page.keyboard.press('Escape');
      }
      await challenge.waitFor({ state: 'detached' });
      await eventually(() => focused(page), (f) => f.testId === 'checkout-error', 'focus back on the message after the bank check failed', 15_000);
      check(await focusInView(page), 'the message is in view after the bank check');

      // A good card: the order page is a route change, so focus goes to its heading.
      await typeInto(page, 'Card number', VISA);
      await pressPay(page);
      await page.waitForURL(/\/myorder\/[^/]+$/, { timeout: 20_000 });
      await landedOnHeading(page, null, 'the order page');
      await headingsInOrder(page, 'order page');
      await page.getByRole('link', { name: 'Your VAT receipt' }).focus();
      await page.keyboard.press('Enter');
      await landedOnHeading(page, 'VAT receipt', 'the receipt');
      await headingsInOrder(page, 'VAT receipt');
    });
  }

  journey('headings never skip a level on any page; empty stars keep 3:1 contrast; the newsletter form starts clean', async ({ newPage }) => {
    const drink = await someDrink();
    const page = await newPage(DESKTOP);
    const pages = [
      ['/', 'home'],
      ['/shop/drinks/', 'shop'],
      [`/drinks/${encodeURIComponent(drink._id)}`, 'drink'],
      [`/drinks/uk?search=${encodeURIComponent(drink.name.split(' ')[0])}`, 'search'],
      ['/drinks/uk?search=zzqqxx', 'search without results'],
      ['/about/drinks-about-us', 'about'],
      ['/contact/drinks-contact/', 'contact'],
      ['/drinks/policies/terms', 'policy'],
      ['/drinks/review', 'reviews'],
      ['/drinks/login', 'login'],
      ['/checkout', 'empty checkout'],
      ['/no/such/page', '404'],
      ['/drinks/no-such-drink', 'unknown drink'],
    ];
    for (const [path, where] of pages) {
      await page.goto(`${BASE_URL}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await headingsInOrder(page, where);
    }

    // The newsletter form at the foot of a fresh page: no field marked, no message.
    const form = page.getByRole('form', { name: 'Newsletter sign-up' });
    await form.waitFor();
    checkEqual(await form.getByLabel('Your email').getAttribute('aria-invalid'), null, 'the e-mail field starts unmarked');
    checkEqual(await form.getByRole('alert').count(), 0, 'no message before a submit');
    checkEqual(await form.getByText('Tick at least one list').count(), 0, 'no list error before a submit');

    // Empty stars against what is behind them: 3:1 at least; every rating reads as words.
    await page.goto(`${BASE_URL}/drinks/review`);
    await page.getByRole('img', { name: /out of 5 stars/ }).first().waitFor();
    const ratios = await page.evaluate(() => {
      const rgb = (c) => c.match(/[\d.]+/g).slice(0, 4).map(Number);
      const lum = ([r, g, b]) => {
        const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const behind = (el) => {
        for (let node = el; node; node = node.parentElement) {
          const c = rgb(getComputedStyle(node).backgroundColor);
          if (c.length < 4 || c[3] > 0) return c;
        }
        return [255, 255, 255];
      };
      const empties = [...document.querySelectorAll('[role="img"][aria-label*="out of 5 stars"] span')].filter((s) => s.textContent === '☆');
      return empties.map((s) => {
        const [a, b] = [lum(rgb(getComputedStyle(s).color)), lum(behind(s))];
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      });
    });
    check(ratios.length > 0, 'the reviews page shows some empty stars');
    check(ratios.every((r) => r >= 3), `empty stars reach 3:1 (${ratios.map((r) => r.toFixed(2)).join(', ')})`);

    // Signed in: the account pages and the admin screens.
    const desk = await adminPage(newPage);
    const admin = ['result', 'about', 'mailer', 'products', 'whoweare', 'subscription', 'reviews', 'order', 'show', 'discount', 'profile', 'users', 'siteinfo', 'policies', 'links', 'categories'];
    const screens = ['/account/order', '/account/profile', '/new/uk', ...admin.map((child) => `/new/uk/${child}`)];
    for (const path of screens) {
      await desk.goto(`${BASE_URL}${path}`);
      await desk.getByRole('heading', { level: 1 }).first().waitFor();
      await headingsInOrder(desk, path);
    }
  });
}
