// What journeys that act as the admin share: a JSON API caller and ONE admin session per run (the back end
// allows 5 login codes an hour per address, and several journey files need the admin), plus a page whose
// app starts signed in as the admin. Below them, the admin area's own journeys (its frame, the
// dashboard, titles, and the tables that sort, filter, page and export); run.mjs registers them.
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';

/** The run's admin session (a promise), shared by every journey file. */
let session;

/** The `Order-Key` of each order `paidOrder` placed: the key its e-mails' links carry. */
const orderKeys = new Map();

/** The code of a login mail: in its body only (a lock screen shows the subject); undefined for other mail. */
export const loginCode = (mail) => /log in to .*?:\s*(\d{6})/.exec(mail?.text ?? '')?.[1];

export function adminHelpers({ check, eventually, BASE_URL }) {
  const api = async (method, path, body, token) => {
    const response = await fetch(`${BASE_URL}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return json;
  };

  // The newest 500 mails, or one recipient's (the outbox answers a page: 50 newest unless asked), oldest
  // first here: the outbox lists newest first, and journeys look for new mail at the end.
  const outbox = async (to) =>
    (await api('GET', `/_local/outbox?limit=500${to ? `&to=${encodeURIComponent(to)}` : ''}`)).reverse();

  // A journey that logs the admin out ends every admin token (logout is on every device): the kept session
  // is checked before it is handed out, and signed in again once it no longer works.
  async function adminSession() {
    if (session) {
      const kept = await session;
      const probe = await fetch(`${BASE_URL}/api/user/profile/`, { headers: { Authorization: `Bearer ${kept.token}` } });
      if (probe.status === 401) session = undefined;
    }
    session ??= (async () => {
      const email = 'admin@example.com';
      const before = (await outbox(email)).length;
      await api('POST', '/api/user/login/', { email });
      const mail = await eventually(
        async () => (await outbox(email)).slice(before).at(-1),
        (m) => Boolean(loginCode(m)),
        'the login code in the outbox',
      );
      const code = loginCode(mail);
      const signedIn = await api('POST', '/api/user/verify/', { email, code });
      check(signedIn.token && signedIn.userInfo?.role === 'admin', 'admin@example.com signs in as an admin');
      return signedIn;
    })();
    return session;
  }

  /**
   * A page whose app starts signed in as the admin: the persisted auth state as redux-persist stores it, put
   * before every load, or with `{ once: true }` before the first only (so the journey can sign out later).
   */
  async function adminPage(newPage, { once = false } = {}) {
    const { token, userInfo } = await adminSession();
    const page = await newPage({ width: 1280, height: 900 });
    const persisted = JSON.stringify({
      Auth: JSON.stringify({ userInfo, token }),
      _persist: JSON.stringify({ version: 1, rehydrated: true }),
    });
    await page.addInitScript(
      ([value, onlyFirst]) => {
        if (onlyFirst && window.sessionStorage.getItem('e2e-seeded')) return;
        window.localStorage.setItem('persist:root', value);
        window.sessionStorage.setItem('e2e-seeded', '1');
      },
      [persisted, once],
    );
    return page;
  }

  /** A paid order of `qty` of one `drinkId` by `email`, through the API with Stripe's 4242 test card. */
  async function paidOrder(email, drinkId, { fullname = 'Amira Haddad', qty = 1 } = {}) {
    const form = new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' });
    const made = await fetch(`${BASE_URL}/_local/stripe/v1/payment_methods`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });
    const method = await made.json();
    check(made.ok && method.id, 'a PaymentMethod for the 4242 card');
    const placed = await fetch(`${BASE_URL}/api/order/create/`, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({
        fullname,
        address: '1 High St, Leeds LS1 1AA',
        phone: '07700 900123',
        email,
        message: '',
        // Asked only when the drink is age-restricted; checked, never kept.
        dateOfBirth: '1990-01-01',
        product: [{ product: drinkId, qty }],
        payment: { provider: 'stripe', paymentMethod: method.id },
      }),
    });
    const id = await placed.json();
    check(placed.status === 201 && typeof id === 'string', `the order is placed and paid (${placed.status})`);
    const key = placed.headers.get('Order-Key');
    check(Boolean(key), 'the checkout answers the key of the order link');
    orderKeys.set(id, key);
    return id;
  }

  /** The page of an order `paidOrder` placed, opened as its e-mail's link opens it (with the key). */
  const orderPage = (id) => `/myorder/${encodeURIComponent(id)}?key=${encodeURIComponent(orderKeys.get(id))}`;
  /** Its VAT receipt, likewise. */
  const receiptPage = (id) => `/order/${encodeURIComponent(id)}/receipt?key=${encodeURIComponent(orderKeys.get(id))}`;
  /** The order as that link's page reads it. */
  const keyedOrder = (id) => api('GET', `/api/order/Orderdetails/${encodeURIComponent(id)}?key=${encodeURIComponent(orderKeys.get(id))}`);

  return { api, outbox, adminSession, adminPage, paidOrder, orderPage, receiptPage, keyedOrder };
}

/** The admin area's journeys: its own frame and dashboard, titles per screen, and the orders table. */
export function registerAdminJourneys({ journey, check, checkEqual, eventually, shot, BASE_URL, DESKTOP, MOBILE }) {
  const { api, outbox, adminPage, paidOrder, keyedOrder } = adminHelpers({ check, eventually, BASE_URL });
  const SHOP = 'Palestine Drinks';
  const fresh = (prefix) => `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;

  /** None of the shop's frame: its banner, navbar, basket and newsletter footer. */
  async function checkAdminFrame(page, where) {
    for (const id of ['store-banner', 'navbar', 'basket-button']) {
      checkEqual(await page.getByTestId(id).count(), 0, `${where}: no shop ${id}`);
    }
    checkEqual(await page.locator('footer').count(), 0, `${where}: no shop footer`);
    await page.getByRole('link', { name: 'Back to the shop' }).waitFor();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
  }

  /** axe-core with the WCAG 2.2 AA tags: no serious or critical violation. */
  async function scan(page, where) {
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    check(bad.length === 0, `${where}: ${bad.map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`).join('; ')}`);
  }

  async function title(page, expected) {
    await eventually(() => page.title(), (t) => t === expected, `the title ${expected}`);
  }

  /** The totals of the rows shown, in pounds, in order. */
  const totals = async (page) =>
    (await page.getByTestId('admin-order-total').allTextContents()).map((text) => Number(/£([\d,.]+)/.exec(text)[1].replace(/,/g, '')));

  journey('admin area: logs in → lands on the dashboard in its own frame; titles per screen; orders sort by total, filter by status (kept in the URL over reload and back), CSV of the filtered rows, a row opens the admin order view', async ({ newPage }) => {
    // Three paid orders by one fresh customer, with different totals; one name a spreadsheet would run.
    const drinks = (await api('GET', '/api/product/')).filter((d) => d.TheNumber >= 6);
    check(drinks.length >= 1, 'a drink in stock to order');
    const email = fresh('tables');
    const names = ['=HYPERLINK("http://evil.example"), Amira', 'Amira Haddad', 'Amira Haddad'];
    const ids = [];
    for (const [i, fullname] of names.entries()) ids.push(await paidOrder(email, drinks[0]._id, { fullname, qty: i + 1 }));
    // As the order link shows them (the bare id shows only where an order stands): totals and VAT included.
    const orders = await Promise.all(ids.map(keyedOrder));

    // The admin logs in through the login page and lands on the dashboard, in the admin's own frame.
    const page = await newPage(DESKTOP);
    await page.goto(`${BASE_URL}/new/uk/`);
    await page.waitForURL(/\/drinks\/login$/);
    const mails = (await outbox('admin@example.com')).length;
    await page.getByRole('textbox', { name: 'E-mail address' }).fill('admin@example.com');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const mail = await eventually(async () => (await outbox('admin@example.com')).slice(mails).at(-1), (m) => Boolean(loginCode(m)), 'the login code');
    await page.getByRole('textbox', { name: 'Code from the e-mail' }).fill(loginCode(mail));
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(/\/new\/uk\/?$/);
    await page.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
    await checkAdminFrame(page, 'dashboard');
    await title(page, `Dashboard · Admin · ${SHOP}`);
    const today = page.getByTestId('today-count');
    await eventually(async () => Number((await today.textContent()).replace(/\D/g, '')), (n) => n >= 3, "today's orders count the three");
    for (const id of ['month-revenue', 'stock', 'reviews-waiting', 'last-mailing']) await page.getByTestId(id).waitFor();
    await page.getByTestId('month-stats').waitFor();
    await scan(page, 'dashboard');
    await shot(page, 'admin-dashboard-1280');

    // Each menu screen has its own title.
    const nav = page.getByRole('navigation', { name: 'Admin' });
    for (const [label, heading] of [['Users', 'Users'], ['Reviews', 'Reviews'], ['Discount codes', 'Discount codes'], ['Products', 'Products']]) {
      await nav.getByRole('link', { name: label, exact: true }).click();
      await page.getByRole('main').getByRole('heading', { level: 2, name: heading }).waitFor();
      await title(page, `${label} · Admin · ${SHOP}`);
    }

    // Orders: only this customer's, by text, then sorted by total both ways.
    await nav.getByRole('link', { name: 'Orders', exact: true }).click();
    await title(page, `Orders · Admin · ${SHOP}`);
    await page.getByLabel('Search by name, e-mail or order id').fill(email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const rows = page.getByTestId('admin-order');
    await eventually(() => rows.count(), (n) => n === 3, 'three orders by the customer');
    const header = page.getByRole('columnheader', { name: /Total/ });
    // A navigation is a transition in react-router: the table follows the URL a moment after the click.
    await header.getByRole('button').click();
    await eventually(() => header.getAttribute('aria-sort'), (v) => v === 'ascending', 'Total sorted');
    const up = await eventually(() => totals(page), (t) => t[0] < t[1] && t[1] < t[2], 'totals ascending');
    await header.getByRole('button').click();
    await eventually(() => header.getAttribute('aria-sort'), (v) => v === 'descending', 'Total sorted the other way');
    await eventually(() => totals(page), (t) => JSON.stringify(t) === JSON.stringify([...up].reverse()), 'totals descending');

    // One shipped: the status filter then keeps two, and the URL holds sort and filters.
    await rows.filter({ hasText: orders[0].number }).getByLabel(/^New status of order/).selectOption('shipped');
    await rows.filter({ hasText: orders[0].number }).getByRole('button', { name: 'Update' }).click();
    await eventually(() => rows.filter({ hasText: orders[0].number }).getByTestId('admin-order-status').textContent(), (t) => t === 'shipped', 'shipped');
    await page.getByLabel('Status', { exact: true }).selectOption('paid');
    await eventually(() => rows.count(), (n) => n === 2, 'two paid orders');
    await scan(page, 'orders table, filtered and sorted');
    await shot(page, 'admin-orders-1280');
    const url = new URL(page.url());
    checkEqual(url.searchParams.get('status'), 'paid', 'the status filter in the URL');
    checkEqual(url.searchParams.get('sort'), 'total', 'the sort in the URL');
    checkEqual(url.searchParams.get('dir'), 'desc', 'the direction in the URL');
    checkEqual(url.searchParams.get('q'), email, 'the text in the URL');
    for (const text of await page.getByTestId('admin-order-status').allTextContents()) checkEqual(text, 'paid', 'a filtered row');

    // A reload keeps it all; back goes to the unfiltered list, forward returns.
    await page.reload();
    await eventually(() => rows.count(), (n) => n === 2, 'two paid orders after the reload');
    checkEqual(await page.getByLabel('Status', { exact: true }).inputValue(), 'paid', 'the status after the reload');
    await eventually(() => page.getByRole('columnheader', { name: /Total/ }).getAttribute('aria-sort'), (v) => v === 'descending', 'the sort after the reload');
    await page.goBack();
    await eventually(() => rows.count(), (n) => n === 3, 'back: all three again');
    await page.goForward();
    await eventually(() => rows.count(), (n) => n === 2, 'forward: the paid two');

    // The CSV holds the filtered rows, escaped, with the accounts' columns.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    checkEqual(download.suggestedFilename(), 'orders.csv', 'the file name');
    const csv = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.trimEnd().split('\r\n');
    checkEqual(lines[0], 'Number,Order id,Date,Customer,E-mail,Items,Subtotal,Discount,Delivery,Total,VAT,VAT rate %,Refunded,Status,Payment,Archived,On hold', 'the CSV header');
    checkEqual(lines.length, 3, 'the header and the two paid orders');
    const paid = orders.slice(1).sort((a, b) => b.total - a.total);
    for (const [i, order] of paid.entries()) {
      const cells = lines[i + 1].split(',');
      checkEqual(cells[0], order.number, `row ${i + 1}'s number`);
      checkEqual(Number(cells[9]), order.total, `row ${i + 1}'s total`);
      checkEqual(Number(cells[10]), order.vat, `row ${i + 1}'s VAT`);
      checkEqual(cells[13], 'paid', `row ${i + 1}'s status`);
    }
    // The shipped order, with its dangerous name, once the filter is cleared: quoted, and prefixed with '.
    await page.getByLabel('Status', { exact: true }).selectOption('shipped');
    await eventually(() => rows.count(), (n) => n === 1, 'the shipped order');
    const [second] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const shippedCsv = await readFile(await second.path(), 'utf8');
    check(shippedCsv.includes(`,"'=HYPERLINK(""http://evil.example""), Amira",`), `the name is quoted and defused: ${shippedCsv}`);

    // The row's number opens the admin's order view, not the shop's order page.
    await rows.first().getByRole('link', { name: orders[0].number }).click();
    await page.waitForURL(new RegExp(`/new/uk/order/${orders[0]._id}$`));
    await page.getByRole('heading', { level: 2, name: `Order ${orders[0].number}` }).waitFor();
    await title(page, `Order ${orders[0].number} · Orders · Admin · ${SHOP}`);
    check((await page.getByTestId('admin-order-facts').textContent()).includes(email), 'the view shows the customer');
    checkEqual(await page.getByTestId('admin-order-view-status').textContent(), 'shipped', 'the view shows the status');
    check((await page.getByTestId('admin-order-history').getByRole('listitem').count()) >= 3, 'the history: pending, paid, shipped');
    await page.getByLabel(/^New status of order/).selectOption('delivered');
    await page.getByRole('button', { name: 'Update' }).click();
    await eventually(() => page.getByTestId('admin-order-view-status').textContent(), (t) => t === 'delivered', 'delivered from the view');
    await checkAdminFrame(page, 'order view');
    await scan(page, 'admin order view');
    await shot(page, 'admin-order-view-1280');
    await page.getByRole('link', { name: '← All orders' }).click();
    await page.waitForURL(/\/new\/uk\/order$/);
  });

  journey('admin area at 375 px: the dashboard in its own frame, the Menu button opens the admin menu, the orders table fits the width', async ({ newPage }) => {
    const page = await adminPage(async () => newPage(MOBILE));
    await page.goto(`${BASE_URL}/new/uk/`);
    await page.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
    await checkAdminFrame(page, 'dashboard at 375 px');
    await scan(page, 'dashboard at 375 px');
    await title(page, `Dashboard · Admin · ${SHOP}`);
    const nav = page.getByRole('navigation', { name: 'Admin', includeHidden: true });
    check(!(await nav.isVisible()), 'the admin menu starts closed on a phone');
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Orders', exact: true }).click();
    await page.waitForURL(/\/new\/uk\/order$/);
    await title(page, `Orders · Admin · ${SHOP}`);
    check(!(await nav.isVisible()), 'the menu closes after choosing');
    await page.getByTestId('admin-order').first().waitFor();
    await page.getByRole('columnheader', { name: /Total/ }).getByRole('button').click();
    await eventually(() => page.url(), (u) => u.includes('sort=total'), 'the sort in the URL');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    check(width <= 375, `nothing overflows sideways at 375 px (page is ${width} px wide)`);
    await shot(page, 'admin-orders-375');
  });
}
