// Browser journeys for checkout, orders and discount codes. run.mjs imports this and calls
// it with its runner and helpers. Each journey makes its own data (a fresh code, a fresh customer address) so
// it depends on no other journey. Payments go through the gateway's stand-in for Stripe.js and localstripe:
// 4242 pays, 4000 0000 0000 0341 is declined on confirm, 4000 0027 6000 3184 asks for 3-D Secure.
//
// The login screen is another issue's work: where a journey needs a signed-in customer or admin it logs in
// through the API (code from the local outbox) and puts the token and userInfo into the persisted state the
// way the app stores them (localStorage 'persist:root', redux-persist's format).

import AxeBuilder from '@axe-core/playwright';
import { adminHelpers, loginCode } from './admin.mjs';

const VISA = '4242 4242 4242 4242';
const DECLINED = '4000 0000 0000 0341';
const THREE_D_SECURE = '4000 0027 6000 3184';

/** An expiry a year or two ahead, as MM/YY. */
function futureExpiry() {
  const now = new Date();
  return `${String(now.getMonth() + 1).padStart(2, '0')}/${String((now.getFullYear() + 2) % 100).padStart(2, '0')}`;
}

const random = () => Math.random().toString(36).slice(2, 10);
const freshEmail = () => `buyer_${random()}@example.com`;

export default function register({ journey, check, checkEqual, eventually, pounds, pence, BASE_URL, DESKTOP, shot }) {
  const { adminSession, adminPage } = adminHelpers({ check, eventually, BASE_URL });
  async function api(method, path, { body, token, headers = {} } = {}) {
    const response = await fetch(`${BASE_URL}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async function outbox() {
    // A page of the newest 500 (the outbox answers 50 unless asked).
    const { body } = await api('GET', '/_local/outbox?limit=500');
    body.reverse(); // newest first from the outbox; oldest first here, so new mail is at the end
    return body;
  }

  /** The newest mail to `email` that `accept` likes, waiting for it to arrive. */
  async function mailTo(email, accept = () => true, what = `a mail to ${email}`) {
    const mails = await eventually(
      async () => (await outbox()).filter((m) => m.to.includes(email) && accept(m)),
      (list) => list.length > 0,
      what,
      10_000,
    );
    return mails.at(-1);
  }

  /** Passwordless login through the API: ask for a code, read it from the outbox, verify. */
  async function apiLogin(email) {
    const before = (await outbox()).length;
    const asked = await api('POST', '/api/user/login/', { body: { email } });
    checkEqual(asked.status, 200, `login code request for ${email}`);
    const mail = await eventually(
      async () => (await outbox()).slice(before).filter((m) => m.to.includes(email) && loginCode(m)).at(-1),
      Boolean,
      `the login code mail to ${email}`,
      10_000,
    );
    const code = loginCode(mail);
    const verified = await api('POST', '/api/user/verify/', { body: { email, code } });
    checkEqual(verified.status, 200, `verify the code for ${email}`);
    return verified.body; // {token, userInfo}
  }

  /**
   * A page whose persisted state holds this session, as the app stores it after a login. Written before any
   * script of each document runs, so the app cannot save its own (signed-out) state over it first.
   */
  async function signedInPage(newPage, session) {
    const page = await newPage(DESKTOP);
    await page.addInitScript(({ token, userInfo }) => {
      const root = JSON.parse(localStorage.getItem('persist:root') ?? '{}');
      root.Auth = JSON.stringify({ token, userInfo });
      root._persist = JSON.stringify({ version: 1, rehydrated: true });
      localStorage.setItem('persist:root', JSON.stringify(root));
    }, session);
    return page;
  }

  /** Drinks in stock with their unit price (the discounted price when they have a discount). */
  async function drinksInStock(count) {
    const { body } = await api('GET', '/api/product/');
    // Not age-restricted ones: their checkout asks a date of birth (a journey of its own).
    const drinks = body.filter((p) => p.TheNumber >= 5 && p.minimumAge == null).slice(0, count);
    check(drinks.length === count, `${count} drinks in stock`);
    return drinks.map((p) => ({ ...p, unit: p.discount > 0 ? p.Discountprice : p.price }));
  }

  /** No serious or critical axe findings on the page as it is now. */
  async function axe(page, where) {
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    check(bad.length === 0, `${where}: ${bad.map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`).join('; ')}`);
  }

  async function addToBasket(page, drink) {
    await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(drink._id)}`);
    await page.getByRole('button', { name: 'Add to basket' }).click();
  }

  async function fillCheckout(page, { fullname, email, card }) {
    await page.getByLabel('Full name').fill(fullname);
    await page.getByLabel('Address line 1').fill('12 Olive Street');
    await page.getByLabel('Town or city').fill('Leeds');
    await page.getByLabel('Postcode', { exact: true }).fill('ls1 4ab');
    await page.getByLabel('Phone').fill('07700 900123');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Message (optional)').fill('Please leave it with the neighbour.');
    await fillCard(page, card);
  }

  /** Stripe's three fields (locally the stand-in's inputs, named after the page's labels). */
  async function fillCard(page, card) {
    await page.getByLabel('Card number').fill(card);
    await page.getByLabel('Expiration date (MM/YY)').fill(futureExpiry());
    await page.getByLabel('Security code').fill('123');
  }

  /** One drink in the basket, on the checkout with the delivery and card filled in. */
  async function checkoutWith(newPage, card) {
    const [drink] = await drinksInStock(1);
    const stockBefore = (await api('GET', `/api/product/${encodeURIComponent(drink._id)}`)).body.TheNumber;
    const email = freshEmail();
    const page = await newPage(DESKTOP);
    await addToBasket(page, drink);
    await page.goto(`${BASE_URL}/checkout`);
    await fillCheckout(page, { fullname: `Card Holder ${random()}`, email, card });
    return { page, drink, email, stockBefore };
  }

  /** The order the page landed on, once the server has it paid. */
  async function landedOnPaidOrder(page, last4) {
    await page.waitForURL(/\/myorder\/[^/]+$/, { timeout: 20_000 });
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop());
    check(/^\d+\.[0-9a-f]{64}$/.test(new URL(page.url()).searchParams.get('key') ?? ''), "the checkout opens the order with its link's key");
    await eventually(() => page.getByTestId('payment-note').getAttribute('data-state').catch(() => null), (s) => s === 'paid', 'the order page says paid', 10_000);
    // The whole order (card included) is for its owner and admins.
    const { token } = await adminSession();
    const { status, body: order } = await api('GET', `/api/order/Orderdetails/${encodeURIComponent(id)}`, { token });
    checkEqual(status, 200, 'the order exists');
    checkEqual(order.status, 'paid', 'the server has it paid');
    checkEqual(order.card.last4, last4, 'the order keeps the last four digits');
    return { id, order };
  }

  journey('checkout: two drinks, a fresh code, Visa 4242 → paid order page, e-mail, account history; admin ships it and sees it in results', async ({ newPage }) => {
    // A fresh 10% code, made by the admin through the API.
    const admin = await adminSession();
    const codeText = `E2E_${random().toUpperCase()}`;
    const created = await api('POST', '/api/code/create/', { token: admin.token, body: { code: codeText, discount: 10 } });
    checkEqual(created.status, 201, 'code created');

    const [first, second] = await drinksInStock(2);
    const email = freshEmail();
    const fullname = `Layla Test ${random()}`;

    const page = await newPage(DESKTOP);
    await addToBasket(page, first);
    await addToBasket(page, second);
    await page.goto(`${BASE_URL}/checkout`);
    await page.getByRole('heading', { name: 'Order summary' }).waitFor();
    await page.getByRole('heading', { name: 'Delivery' }).waitFor();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    await page.getByText('Order pay').waitFor();

    // Expected figures by the shop's rule: the code off the subtotal (half-up), £4.99 delivery below £40.
    const subtotal = pence(first.unit) + pence(second.unit);
    // The summary is the server's quote: "…" until it arrives.
    await eventually(() => page.getByTestId('subtotal').textContent().then((t) => pence(pounds(t))), (s) => s === subtotal, 'subtotal before the code');

    await page.getByLabel('Discount code').fill(codeText.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('applied-code').waitFor();
    const afterCode = Math.floor((subtotal * 90 + 50) / 100);
    const shipping = afterCode >= 4000 ? 0 : 499;
    const expected = afterCode + shipping;
    await eventually(() => page.getByTestId('total').textContent().then((t) => pence(pounds(t))), (t) => t === expected, 'total after the code');

    await fillCheckout(page, { fullname, email, card: VISA });
    await axe(page, 'checkout');
    await shot(page, 'checkout');
    await page.getByRole('button', { name: /^Pay / }).click();
    const { id, order } = await landedOnPaidOrder(page, '4242');
    const shown = pence(pounds(await page.getByTestId('order-total').textContent()));
    checkEqual(pence(order.total), expected, "the server's total is the expected arithmetic");
    checkEqual(shown, pence(order.total), "the page shows the server's total");
    checkEqual(order.code, codeText, 'the code was spent on the order');
    checkEqual(await page.getByTestId('order-line').count(), 2, 'two lines on the order page');
    checkEqual(await page.getByTestId('basket-badge').count(), 0, 'the basket is empty');
    const persisted = await page.evaluate(() => JSON.parse(localStorage.getItem('persist:root') ?? '{}'));
    checkEqual(JSON.parse(persisted.TheDiscount ?? '{}').applied ?? null, null, 'the applied code is cleared');
    await axe(page, 'order page');
    await shot(page, 'order-page');

    // The confirmation e-mail to the customer.
    const mail = await mailTo(email, (m) => `${m.subject} ${m.text}`.includes(id.slice(0, 8)), 'the order confirmation e-mail');
    check(mail.html && mail.text, 'the confirmation has HTML and text');

    // The customer sees it in their account.
    const customer = await apiLogin(email);
    const mine = await signedInPage(newPage, customer);
    await mine.goto(`${BASE_URL}/account/order`);
    const history = mine.getByTestId('order-history');
    await history.waitFor();
    await history.locator(`a[href="/myorder/${encodeURIComponent(id)}"]`).waitFor();
    await eventually(() => mine.getByTestId('order-totals').textContent(), (t) => t.includes(`£${(expected / 100).toFixed(2)}`), 'the account totals');

    // The admin finds it by name, marks it shipped, and sees it in the results.
    const desk = await signedInPage(newPage, admin);
    await desk.goto(`${BASE_URL}/new/uk/order`);
    await desk.getByLabel('Search by name, e-mail or order id').fill(fullname);
    await desk.getByRole('button', { name: 'Search', exact: true }).click();
    const rows = desk.getByTestId('admin-order');
    await eventually(() => rows.count(), (n) => n === 1, 'one order found by the name');
    const row = rows.first();
    check((await row.textContent()).includes(email), 'the row is the customer order');
    await axe(desk, 'admin orders');
    await row.getByRole('combobox').selectOption('shipped');
    await row.getByRole('button', { name: 'Update' }).click();
    await eventually(() => desk.getByTestId('admin-order-status').first().textContent(), (t) => t === 'shipped', 'the status after the update');
    checkEqual((await api('GET', `/api/order/Orderdetails/${encodeURIComponent(id)}`)).body.status, 'shipped', 'the server has it shipped');

    await desk.goto(`${BASE_URL}/new/uk/result`);
    await desk.getByTestId('results-table').waitFor();
    const now = new Date();
    const month = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(now);
    const row0 = desk.getByTestId('results-month').filter({ hasText: month });
    await row0.waitFor();
    const cells = await row0.locator('td').allTextContents();
    check(Number(cells[1]) >= 1 && pence(pounds(cells[2])) >= expected, `this month counts the order (${cells.join(' | ')})`);
    await desk.getByTestId('results-emails').getByText(email, { exact: true }).waitFor();
    await desk.locator('svg[aria-label="Payments per month"]').waitFor();
    await axe(desk, 'admin results');
    await shot(desk, 'admin-results');
  });

  journey('trading lawfully: food information on the drink page, the trader, VAT and policies before paying, VAT and the right to cancel in the e-mail, a printable receipt', async ({ newPage }) => {
    const { body: drinks } = await api('GET', '/api/product/');
    const withAllergen = drinks.find((d) => d.allergens.length > 0 && d.TheNumber >= 2);
    const caffeinated = drinks.find((d) => (d.caffeineMgPerLitre ?? 0) > 150);
    check(withAllergen && caffeinated, 'the demo shop has a drink with an allergen and a high-caffeine one');
    const page = await newPage(DESKTOP);

    // The drink page: allergens in bold in the ingredients, the nutrition per 100 ml and per can.
    await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(withAllergen._id)}`);
    const food = page.getByRole('region', { name: 'Ingredients and nutrition' });
    await food.waitFor();
    const bold = await food.getByTestId('ingredients').locator('strong').allTextContents();
    check(bold.length > 0 && bold.every((b) => withAllergen.ingredients.includes(`*${b}*`)), `the marked allergens are bold (${bold.join(', ')})`);
    const table = food.getByRole('table', { name: 'Nutrition' });
    await table.getByRole('columnheader', { name: 'Per 100 ml' }).waitFor();
    await table.getByRole('columnheader', { name: /^Per can/ }).waitFor();
    check(!(await food.textContent()).includes('High caffeine content'), 'no caffeine warning on a drink without much');
    // The footer comes with the app (the drink page itself may already be there, prerendered), as the
    // shopper scrolls towards it.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.locator('footer').getByRole('link', { name: 'Terms of sale' }).waitFor();
    check(await page.locator('footer').getByRole('link', { name: 'Terms of sale' }).count() === 1, 'the footer links the terms');
    await axe(page, 'drink page with food information');

    // Every invitation to purchase names the price of a litre and the delivery charge the checkout uses.
    const { body: settings } = await api('GET', '/api/order/payment-settings/');
    const terms = `+ £${settings.deliveryFee.toFixed(2)} delivery, free from £${Number.isInteger(settings.freeDeliveryFrom) ? settings.freeDeliveryFrom : settings.freeDeliveryFrom.toFixed(2)}`;
    await page.getByTestId('delivery-line').waitFor();
    checkEqual(await page.getByTestId('delivery-line').textContent(), terms, 'the drink page names the delivery terms');
    check((await page.locator('main').textContent()).includes(`£${withAllergen.pricePerLitre.toFixed(2)} per litre`), 'the drink page shows the price of a litre');
    await page.goto(`${BASE_URL}/shop/drinks/`);
    await page.getByTestId('drinks-list').getByTestId('delivery-line').first().waitFor();
    checkEqual(await page.getByTestId('drinks-list').getByTestId('delivery-line').first().textContent(), terms, 'the shop cards name them too');

    // The sweetener statement with the name; the high-caffeine one by the price and the Add button.
    const sweetened = drinks.find((d) => d.statements.includes('with-sweeteners'));
    if (sweetened) {
      await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(sweetened._id)}`);
      check((await page.getByTestId('name-statements').textContent()).includes('With sweeteners'), 'the sweetener statement beside the name');
    }
    await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(caffeinated._id)}`);
    const warning = await page.getByRole('note').textContent();
    check(
      warning.includes('High caffeine content. Not recommended for children or pregnant or breast-feeding women') &&
        warning.includes(`${caffeinated.caffeineMgPerLitre / 10} mg/100 ml`),
      `the caffeine warning (${warning})`,
    );
    const [noteBox, addBox] = await Promise.all([page.getByRole('note').boundingBox(), page.getByRole('button', { name: 'Add to basket' }).boundingBox()]);
    check(noteBox && addBox && noteBox.y < addBox.y && addBox.y - noteBox.y < 400, 'the caffeine warning stands just above the Add button');

    // Checkout: before the Pay button, the trader and its address, the VAT in the total, terms and cancellation.
    const { body: site } = await api('GET', '/api/connect/uk/palestine/connect/');
    await addToBasket(page, withAllergen);
    await page.goto(`${BASE_URL}/checkout`);
    const before = page.getByTestId('before-you-pay');
    await before.waitFor();
    const beforeText = await before.textContent();
    check(beforeText.includes(site.name) && beforeText.includes(site.address), `the trader and address before paying (${beforeText})`);
    check(beforeText.includes('you pay the cost of sending the drinks back'), 'who pays to send drinks back, before paying');
    const total = await eventually(() => page.getByTestId('total').textContent().then((t) => pence(pounds(t))), (t) => t > 0, 'the quoted total');
    const vat = Math.floor((2 * total * site.vatRate + 100 + site.vatRate) / (2 * (100 + site.vatRate)));
    checkEqual(pence(pounds(await before.getByTestId('checkout-vat').textContent())), vat, 'the VAT the total includes');
    checkEqual(await before.getByRole('link', { name: 'terms of sale' }).getAttribute('href'), '/drinks/policies/terms', 'terms link');
    checkEqual(
      await before.getByRole('link', { name: 'your right to cancel' }).getAttribute('href'),
      '/drinks/policies/returns#model-cancellation-form',
      'cancellation link',
    );
    const email = freshEmail();
    await fillCheckout(page, { fullname: `Vat Buyer ${random()}`, email, card: VISA });
    await page.getByRole('button', { name: `Pay £${(total / 100).toFixed(2)}` }).click();
    const { id, order } = await landedOnPaidOrder(page, '4242');
    checkEqual(`${order.vatRate}% ${pence(order.vat)}`, `${site.vatRate}% ${vat}`, 'the order keeps the rate and the VAT');
    checkEqual(await page.getByTestId('order-vat').textContent(), `VAT included: £${(vat / 100).toFixed(2)} (at ${site.vatRate}%)`, 'the order page shows the VAT');

    // The confirmation: the VAT line, the trader, the cancellation form and terms, the receipt.
    const mail = await mailTo(email, (m) => m.text.includes(id), 'the order confirmation');
    for (const part of [
      'VAT included',
      site.address,
      '/drinks/policies/returns#model-cancellation-form',
      `/drinks/policies/terms?version=${order.termsVersion}`,
      `/order/${id}/receipt`,
      'The key points of our terms',
      'How to complain',
      'I/We [*] hereby give notice that I/We [*] cancel my/our [*] contract of sale',
      'you pay the cost of sending the drinks back',
    ]) {
      check(mail.html.includes(part.replace(/&/g, '&amp;')) && mail.text.includes(part), `the confirmation carries ${part}`);
    }
    if (site.companyName) check(mail.text.includes(site.companyName), 'the confirmation names the company');

    // The order page links the terms the order was sold under; the page shows that version.
    checkEqual(await page.getByTestId('order-terms').getAttribute('href'), `/drinks/policies/terms?version=${order.termsVersion}`, 'the order links its terms');

    // The receipt, from the order page.
    await page.getByRole('link', { name: 'Your VAT receipt' }).click();
    await page.getByRole('heading', { name: 'VAT receipt' }).waitFor();
    checkEqual(pence(pounds(await page.getByTestId('receipt-vat').textContent())), vat, 'the receipt shows the VAT');
    if (site.vatNumber) check((await page.getByTestId('receipt-seller').textContent()).includes(site.vatNumber), 'the receipt shows the VAT number');
    if (site.companyNumber) check((await page.getByTestId('receipt-seller').textContent()).includes(site.companyNumber), 'the receipt shows the company number');
    await axe(page, 'VAT receipt');
    await shot(page, 'vat-receipt');

    // The cancellation link lands on the model form.
    await page.goto(`${BASE_URL}/drinks/policies/returns#model-cancellation-form`);
    await page.getByRole('heading', { name: 'Model cancellation form' }).waitFor();
    // The terms as the order was sold under them, and the company in the footer.
    await page.goto(`${BASE_URL}/drinks/policies/terms?version=${order.termsVersion}`);
    await page.getByTestId('policy-version').waitFor();
    check((await page.getByTestId('policy-version').textContent()).includes(`Version ${order.termsVersion}`), 'the kept version of the terms');
    if (site.companyName) {
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.getByTestId('footer-legal').waitFor();
      check((await page.getByTestId('footer-legal').textContent()).includes(site.companyName), 'the footer names the company');
    }
  });

  journey('after the purchase: the order number, the admin ships with a tracking number, the mail links the order, the link opens it with its tracking', async ({ newPage }) => {
    const { page, email } = await checkoutWith(newPage, VISA);
    await page.getByRole('button', { name: /^Pay / }).click();
    const { id, order } = await landedOnPaidOrder(page, '4242');
    check(/^PD-\d{5,}$/.test(order.number), `the order has a number (${order.number})`);
    checkEqual(await page.getByTestId('order-number').textContent(), order.number, 'the order page shows the number');
    const confirmation = await mailTo(email, (m) => m.subject.includes(order.number), 'the confirmation with the number');
    check(confirmation.subject.includes(order.number), 'the subject carries the number');

    // The admin finds it by its number and ships it with Royal Mail and a tracking number.
    const admin = await adminSession();
    const desk = await signedInPage(newPage, admin);
    await desk.goto(`${BASE_URL}/new/uk/order`);
    await desk.getByLabel('Search by name, e-mail or order id').fill(order.number);
    await desk.getByRole('button', { name: 'Search', exact: true }).click();
    const rows = desk.getByTestId('admin-order');
    await eventually(() => rows.count(), (n) => n === 1, 'one order found by its number');
    const row = rows.first();
    await row.getByLabel(`New status of order ${order.number} for`, { exact: false }).selectOption('shipped');
    await row.getByLabel(`Carrier of order ${order.number}`).selectOption('royal-mail');
    await row.getByLabel(`Tracking number of order ${order.number}`).fill('AB123456789GB');
    await row.getByRole('button', { name: 'Update' }).click();
    await eventually(() => desk.getByTestId('admin-order-status').first().textContent(), (t) => t === 'shipped', 'shipped');

    // One "on its way" mail, with the tracking and a link that opens the order without logging in.
    const shipped = await mailTo(email, (m) => m.subject === `Your order ${order.number} is on its way`, 'the shipped mail');
    check(shipped.text.includes('tracking-results/AB123456789GB'), 'the shipped mail has the tracking link');
    const link = /https?:\/\/[^\s]+\/myorder\/[^\s]+\?key=[^\s]+/.exec(shipped.text)?.[0];
    check(Boolean(link), 'the shipped mail links the order');
    const stranger = await newPage(DESKTOP);
    await stranger.goto(`${BASE_URL}${new URL(link).pathname}${new URL(link).search}`);
    await stranger.getByTestId('order-tracking').waitFor();
    check((await stranger.getByTestId('order-tracking').textContent()).includes('AB123456789GB'), 'the linked page shows the tracking');
    check((await stranger.getByTestId('order-history-steps').textContent()).includes('Shipped'), 'the history shows the shipping');
    await axe(stranger, 'order page with tracking');
    checkEqual((await outbox()).filter((m) => m.to.includes(email) && m.subject.includes('is on its way')).length, 1, 'the shipped mail was sent once');
    void id;
  });

  journey('returning customer: the details are saved with the first order and fill the second checkout; Buy again refills the basket', async ({ newPage }) => {
    const email = freshEmail();
    const session = await apiLogin(email);
    const [drink] = await drinksInStock(1);
    const page = await signedInPage(newPage, session);
    await addToBasket(page, drink);
    await page.goto(`${BASE_URL}/checkout`);
    await page.getByLabel('Full name').waitFor();
    checkEqual(await page.getByLabel('Address line 1').inputValue(), '', 'a new customer has no address yet');
    const fullname = `Returning ${random()}`;
    await fillCheckout(page, { fullname, email, card: VISA });
    check(await page.getByLabel('Save these details to my account for next time').isChecked(), 'saving is ticked by default');
    await page.getByRole('button', { name: /^Pay / }).click();
    const { id } = await landedOnPaidOrder(page, '4242');
    await eventually(async () => (await api('GET', '/api/user/profile/', { token: session.token })).body, (p) => p.postcode === 'LS1 4AB' && p.address === '12 Olive Street\nLeeds\nLS1 4AB', 'the profile has the address and its parts');

    // The second checkout starts filled in.
    await addToBasket(page, drink);
    await page.goto(`${BASE_URL}/checkout`);
    await eventually(() => page.getByLabel('Address line 1').inputValue(), (v) => v === '12 Olive Street', 'the address is filled in');
    checkEqual(await page.getByLabel('Postcode', { exact: true }).inputValue(), 'LS1 4AB', 'the postcode is filled in');
    checkEqual(await page.getByLabel('Full name').inputValue(), fullname, 'the name is filled in');
    checkEqual(await page.getByLabel('Phone').inputValue(), '07700 900123', 'the phone is filled in');

    // Buy again from the first order.
    await page.goto(`${BASE_URL}/myorder/${encodeURIComponent(id)}`);
    await page.getByRole('button', { name: 'Buy again' }).click();
    const outcome = await page.getByTestId('buy-again-outcome').textContent();
    check(outcome.includes(drink.name), `Buy again added the drink (${outcome})`);
    await eventually(() => page.getByTestId('basket-badge').textContent().catch(() => ''), (t) => t === '1', 'one line in the basket');
  });

  journey('data rights: a customer downloads their data, then deletes the account with the e-mailed code; the order on its way keeps its delivery details until delivered, then stays without them', async ({ newPage }) => {
    const email = freshEmail();
    const session = await apiLogin(email);
    const [drink] = await drinksInStock(1);
    const page = await signedInPage(newPage, session);
    await addToBasket(page, drink);
    await page.goto(`${BASE_URL}/checkout`);
    await fillCheckout(page, { fullname: `Leaving ${random()}`, email, card: VISA });
    await page.getByRole('button', { name: /^Pay / }).click();
    const { id } = await landedOnPaidOrder(page, '4242');

    await page.goto(`${BASE_URL}/account/profile`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
    checkEqual(download.suggestedFilename(), 'my-data.json', 'the download is named');
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    const data = JSON.parse(await readFile(path, 'utf8'));
    checkEqual(data.email, email, 'the export is of this address');
    checkEqual(data.orders.length, 1, 'the export holds the order');
    check(data.profile && data.profile.postcode === 'LS1 4AB' && data.profile.addressLine1 === '12 Olive Street', 'the export holds the saved profile');

    await page.getByRole('button', { name: 'Delete my account' }).click();
    const mail = await mailTo(email, (m) => m.subject.includes('Confirm deleting'), 'the erasure code');
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    check(Boolean(code), 'the mail has a code');
    // The button is gone: the code's field has the focus.
    await eventually(() => page.evaluate(() => document.activeElement?.id), (focused) => focused === 'erase-code', 'focus on the code field');
    await page.keyboard.type(code);
    await page.getByRole('button', { name: 'Delete my account for good' }).click();
    // The ending is a page that says so, its heading focused.
    await page.waitForURL(`${BASE_URL}/account/deleted`, { timeout: 10_000 });
    const heading = page.getByRole('heading', { level: 1, name: 'Your account is deleted' });
    await heading.waitFor();
    await eventually(() => heading.evaluate((el) => el === document.activeElement), (yes) => yes, 'focus on the page heading');
    await axe(page, 'the account-deleted page');
    checkEqual((await api('GET', '/api/user/profile/', { token: session.token })).status, 401, 'the session is over');
    const admin = await adminSession();
    const orderNow = async () => (await api('GET', `/api/order/Orderdetails/${encodeURIComponent(id)}`, { token: admin.token })).body;
    // The paid order is on its way: it keeps the name and address it is delivered to until it arrives.
    const waiting = await orderNow();
    checkEqual(`${waiting.email}|${waiting.postcode}`, `${email}|LS1 4AB`, 'the order on its way keeps its delivery details');
    for (const status of ['shipped', 'delivered']) {
      checkEqual((await api('PUT', `/api/order/update/${encodeURIComponent(id)}`, { token: admin.token, body: { status } })).status, 200, `the admin marks it ${status}`);
    }
    // Delivered, the next expiry run (every minute) takes the person out of it.
    const order = await eventually(orderNow, (o) => o.fullname === 'Erased customer', 'the delivered order without the person', 90_000);
    checkEqual(`${order.fullname}|${order.email}|${order.address}`, 'Erased customer||Erased customer', 'the order is kept without the person');
    checkEqual(`${order.addressLine1}|${order.postcode}`, 'null|null', 'the address parts go with the person');
    check(order.total > 0 && order.vat > 0, 'the order keeps its total and VAT');
  });

  /** A fresh drink made by the admin through the API (its id, name and price). */
  async function freshDrink(fields) {
    const admin = await adminSession();
    const made = await api('POST', '/api/product/create/', { token: admin.token, body: { qty: '12 x 330ml', TheNumber: 20, ...fields } });
    checkEqual(made.status, 201, `${fields.name} created`);
    return made.body;
  }

  /** The orders placed with `email`, as the admin's search finds them. */
  async function ordersOf(email) {
    const admin = await adminSession();
    const { body } = await api('GET', `/api/order?pageNumber=1&search=${encodeURIComponent(email)}`, { token: admin.token });
    return body.product;
  }

  journey('checkout: a price that moves after the checkout opened is listed change by change, nothing is charged, and the next Pay charges the new total', async ({ newPage }) => {
    const name = `Price Mover ${random()}`;
    const drink = await freshDrink({ name, price: 9.5 });
    const email = freshEmail();
    const page = await newPage(DESKTOP);
    await addToBasket(page, drink);
    await page.goto(`${BASE_URL}/checkout`);
    await fillCheckout(page, { fullname: `Price Watcher ${random()}`, email, card: VISA });
    // £9.50 and £4.99 delivery, as the server quoted it when the page opened.
    await page.getByRole('button', { name: 'Pay £14.49' }).waitFor();

    const admin = await adminSession();
    const raised = await api('PUT', `/api/product/update/${encodeURIComponent(drink._id)}`, { token: admin.token, body: { price: 12 } });
    checkEqual(raised.status, 200, 'the admin raises the price');
    await page.getByRole('button', { name: 'Pay £14.49' }).click();
    const message = page.getByTestId('checkout-error');
    await message.waitFor({ timeout: 15_000 });
    check((await message.textContent()).includes('nothing was charged'), 'the message says nothing was charged');
    checkEqual(
      (await page.getByTestId('price-changes').getByRole('listitem').allTextContents()).join(' | '),
      `${name}: £12.00 each, was £9.50 | Total: £16.99, was £14.49`,
      'what changed',
    );
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')), (id) => id === 'checkout-error', 'focus on the message');
    checkEqual((await ordersOf(email)).length, 0, 'no order was placed');
    checkEqual((await api('GET', `/api/product/${encodeURIComponent(drink._id)}`)).body.TheNumber, 20, 'no stock was held');
    await axe(page, 'checkout with a moved total');

    await page.getByRole('button', { name: 'Pay £16.99' }).click();
    const { order } = await landedOnPaidOrder(page, '4242');
    checkEqual(pence(order.total), 1699, 'the new total, which the shopper agreed to, is charged');
  });

  journey('age-restricted drink: its page says 16+, the checkout asks the date of birth, refuses a 15-year-old, and the admin sees "Age check on delivery"', async ({ newPage }) => {
    const drink = await freshDrink({ name: `Night Shift ${random()}`, price: 2.5, caffeineMgPerLitre: 320 });
    checkEqual(drink.minimumAge, 16, 'the drink carries its minimum age');
    const page = await newPage(DESKTOP);
    await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(drink._id)}`);
    const line = page.getByTestId('age-restriction');
    await line.waitFor();
    check((await line.textContent()).includes('Sold only to buyers aged 16 or over'), 'the drink page says who may buy it');
    await page.getByRole('button', { name: 'Add to basket' }).click();
    await page.goto(`${BASE_URL}/checkout`);
    const email = freshEmail();
    await fillCheckout(page, { fullname: `Age Checked ${random()}`, email, card: VISA });
    const born = page.getByLabel('Date of birth');
    await born.waitFor();
    const young = new Date();
    young.setUTCFullYear(young.getUTCFullYear() - 15);
    await born.fill(young.toISOString().slice(0, 10));
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await eventually(() => born.getAttribute('aria-invalid'), (v) => v === 'true', 'a 15-year-old is refused at the form');
    check((await page.locator('#dateOfBirth-error').textContent()).includes('You must be 16 or over'), 'the refusal says why');
    checkEqual((await ordersOf(email)).length, 0, 'nothing was sent');
    await axe(page, 'checkout asking the date of birth');

    await born.fill('1990-04-30');
    await page.getByRole('button', { name: /^Pay £/ }).click();
    const { id, order } = await landedOnPaidOrder(page, '4242');
    checkEqual(order.ageCheck, true, 'the order carries the age check');
    check(!('dateOfBirth' in order), 'the date of birth is not kept');

    const admin = await adminPage(async () => newPage(DESKTOP));
    await admin.goto(`${BASE_URL}/new/uk/order/${encodeURIComponent(id)}`);
    await admin.getByTestId('admin-order-age-check').waitFor();
    check((await admin.getByTestId('admin-order-age-check').textContent()).includes('Age check on delivery'), 'the packing view says it');
  });

  journey('checkout: an order whose answer was lost is not placed twice after a reload (the Idempotency-Key survives it)', async ({ newPage }) => {
    const [drink] = await drinksInStock(1);
    const stockBefore = (await api('GET', `/api/product/${encodeURIComponent(drink._id)}`)).body.TheNumber;
    const email = freshEmail();
    const fullname = `Reloader ${random()}`;
    const page = await newPage(DESKTOP);
    await addToBasket(page, drink);
    await page.goto(`${BASE_URL}/checkout`);
    await fillCheckout(page, { fullname, email, card: VISA });
    // The server places and charges the order, but its answer never reaches the page.
    await page.route('**/api/order/create/', async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    });
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await page.getByTestId('checkout-error').waitFor({ timeout: 15_000 });
    await page.unroute('**/api/order/create/');
    await eventually(async () => (await ordersOf(email)).length, (n) => n === 1, 'the first attempt placed the order');

    await page.reload();
    await fillCheckout(page, { fullname, email, card: VISA });
    await page.getByRole('button', { name: /^Pay £/ }).click();
    const { id } = await landedOnPaidOrder(page, '4242');
    const placed = await ordersOf(email);
    checkEqual(placed.map((o) => o._id).join(' '), id, 'one order for the basket: the first one');
    checkEqual((await api('GET', `/api/product/${encodeURIComponent(drink._id)}`)).body.TheNumber, stockBefore - 1, 'its stock taken once');
  });

  journey('back in stock: a shopper leaves an address on a sold-out drink; the admin restocks it; one mail arrives', async ({ newPage }) => {
    const admin = await adminSession();
    const name = `Rare Ginger ${random()}`;
    const created = await api('POST', '/api/product/create/', { token: admin.token, body: { name, price: 2.5, qty: '12 x 330ml', TheNumber: 0 } });
    checkEqual(created.status, 201, 'a sold-out drink');
    const email = freshEmail();
    const page = await newPage(DESKTOP);
    await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(created.body._id)}`);
    await page.getByRole('textbox', { name: 'E-mail me when it is back' }).fill(email);
    await page.getByRole('button', { name: 'Notify me' }).click();
    await page.getByTestId('back-in-stock-done').waitFor();
    await axe(page, 'sold-out drink with the alert form');
    // Double opt-in: the alert waits once its own mail's link is confirmed (the page's button posts the token).
    const ask = await mailTo(email, (m) => m.subject === `Confirm your alert for ${name}`, 'the alert confirmation');
    const token = /\/confirm\/alert\?token=([^\s&]+)/.exec(ask.text)?.[1];
    check(Boolean(token), 'the confirmation mail has its link');
    const confirmed = await api('POST', '/api/product/notify/confirm/', { body: { token: decodeURIComponent(token) } });
    checkEqual(confirmed.status, 200, 'the alert is confirmed');

    const desk = await signedInPage(newPage, admin);
    await desk.goto(`${BASE_URL}/new/uk/products`);
    const row = desk.getByTestId('admin-product').filter({ hasText: name });
    await row.waitFor();
    checkEqual(await row.getByTestId('waiting-count').textContent(), '1 waiting', 'the admin sees one waiting');
    const restocked = await api('PUT', `/api/product/update/${encodeURIComponent(created.body._id)}`, { token: admin.token, body: { TheNumber: 24 } });
    checkEqual(restocked.status, 200, 'restocked');
    const mail = await mailTo(email, (m) => m.subject === `${name} is back in stock`, 'the back-in-stock mail');
    check(mail.text.includes(`/drinks/${created.body._id}`) && mail.text.includes('/api/product/notify/stop/?token='), 'the mail links the drink and a stop link');
    await api('PUT', `/api/product/update/${encodeURIComponent(created.body._id)}`, { token: admin.token, body: { TheNumber: 30 } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // The alert was confirmed by its own mail; the restock mails once, however often stock comes back.
    checkEqual((await outbox()).filter((m) => m.to.includes(email) && m.subject === `${name} is back in stock`).length, 1, 'one mail, once');
    await api('DELETE', `/api/product/delete/${encodeURIComponent(created.body._id)}`, { token: admin.token });
  });

  journey('checkout: card 4000 0000 0000 0341 is declined: the reason shows at the form, the basket and stock are kept', async ({ newPage }) => {
    const { page, drink, email, stockBefore } = await checkoutWith(newPage, DECLINED);
    await page.getByRole('button', { name: /^Pay / }).click();
    const reason = await eventually(
      () => page.getByTestId('checkout-error').textContent({ timeout: 1000 }).catch(() => ''),
      (t) => /declined/i.test(t),
      'the decline reason at the form',
      15_000,
    );
    check(reason.length > 10, `a reason in words (${reason})`);
    check(new URL(page.url()).pathname === '/checkout', 'still on the checkout');
    checkEqual(await page.getByTestId('basket-badge').textContent(), '1', 'the basket is kept');
    checkEqual((await api('GET', `/api/product/${encodeURIComponent(drink._id)}`)).body.TheNumber, stockBefore, 'stock unchanged');
    await page.waitForTimeout(1500); // localstripe's webhook comes about a second after the event
    checkEqual((await outbox()).filter((m) => m.to.includes(email)).length, 0, 'no confirmation e-mail');
    await shot(page, 'checkout-declined');

    // Another card on the same form pays.
    await fillCard(page, VISA);
    await page.getByRole('button', { name: /^Pay / }).click();
    await landedOnPaidOrder(page, '4242');
  });

  journey('checkout: card 4000 0027 6000 3184 asks for 3-D Secure; completing the challenge lands on the paid order', async ({ newPage }) => {
    const { page } = await checkoutWith(newPage, THREE_D_SECURE);
    await page.getByRole('button', { name: /^Pay / }).click();
    const challenge = page.getByRole('dialog', { name: 'Confirm this payment with your bank' });
    await challenge.waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Waiting for your bank…' }).waitFor();
    await axe(page, '3-D Secure challenge');
    await shot(page, 'checkout-3ds');
    await challenge.getByRole('button', { name: 'Complete' }).click();
    await landedOnPaidOrder(page, '3184');
    checkEqual(await page.getByTestId('basket-badge').count(), 0, 'the basket is empty');
  });

  journey('checkout: failing the 3-D Secure challenge keeps the basket and says why', async ({ newPage }) => {
    const { page, drink, stockBefore } = await checkoutWith(newPage, THREE_D_SECURE);
    await page.getByRole('button', { name: /^Pay / }).click();
    const challenge = page.getByRole('dialog', { name: 'Confirm this payment with your bank' });
    await challenge.waitFor({ timeout: 15_000 });
    await challenge.getByRole('button', { name: 'Fail' }).click();
    await eventually(
      () => page.getByTestId('checkout-error').textContent({ timeout: 1000 }).catch(() => ''),
      (t) => t.length > 0,
      'the reason at the form',
      15_000,
    );
    check(new URL(page.url()).pathname === '/checkout', 'still on the checkout');
    checkEqual(await page.getByTestId('basket-badge').textContent(), '1', 'the basket is kept');
    checkEqual((await api('GET', `/api/product/${encodeURIComponent(drink._id)}`)).body.TheNumber, stockBefore, 'stock given back');
  });

  journey('the local Stripe.js stand-in: split fields, a PaymentMethod through the gateway, its refusals', async ({ newPage }) => {
    const page = await newPage(DESKTOP);
    await page.goto(`${BASE_URL}/`);
    await page.setContent(`<!doctype html><html lang="en"><title>stand-in</title><main>
      <label for="n" id="n-label">Card number</label><div id="n"></div>
      <label for="e" id="e-label">Expiration date (MM/YY)</label><div id="e"></div>
      <label for="c" id="c-label">Security code</label><div id="c"></div></main>`);
    await page.addScriptTag({ url: `${BASE_URL}/_local/stripe.js` });
    const settings = (await api('GET', '/_local/stripe')).body;
    check(settings.publishableKey.startsWith('pk_'), 'the gateway gives a publishable key');
    await page.evaluate((key) => {
      const stripe = window.Stripe(key);
      const elements = stripe.elements();
      const changes = [];
      window.__standIn = { stripe, elements, changes };
      for (const [type, id] of [['cardNumber', '#n'], ['cardExpiry', '#e'], ['cardCvc', '#c']]) {
        const element = elements.create(type, { style: { base: { color: 'rgb(22, 19, 15)' } } });
        element.on('change', (event) => changes.push({ type, complete: event.complete, error: event.error?.message ?? null }));
        element.mount(id);
      }
    }, settings.publishableKey);
    // An incomplete card never leaves the page.
    const incomplete = await page.evaluate(async () => {
      const { stripe, elements } = window.__standIn;
      return stripe.createPaymentMethod({ type: 'card', card: elements.getElement('cardNumber') });
    });
    checkEqual(incomplete.error?.code, 'incomplete_number', 'an empty card is refused in the browser');
    await page.getByLabel('Card number').fill('4242424242424241');
    await page.getByLabel('Card number').blur();
    checkEqual(await page.getByLabel('Card number').getAttribute('aria-invalid'), 'true', 'a number failing Luhn is marked');
    await page.getByLabel('Card number').fill('4242424242424242');
    checkEqual(await page.getByLabel('Card number').inputValue(), '4242 4242 4242 4242', 'the number is grouped in fours');
    await page.getByLabel('Expiration date (MM/YY)').fill(futureExpiry());
    await page.getByLabel('Security code').fill('123');
    const changes = await page.evaluate(() => window.__standIn.changes.filter((c) => c.complete).map((c) => c.type));
    for (const type of ['cardNumber', 'cardExpiry', 'cardCvc']) check(changes.includes(type), `${type} reported complete`);
    const made = await page.evaluate(async () => {
      const { stripe, elements } = window.__standIn;
      return stripe.createPaymentMethod({ type: 'card', card: elements.getElement('cardNumber'), billing_details: { name: 'Layla Haddad' } });
    });
    check(made.paymentMethod?.id?.startsWith('pm_'), `a PaymentMethod (${JSON.stringify(made)})`);
    checkEqual(made.paymentMethod.card.last4, '4242', 'its last four digits');
    checkEqual(made.paymentMethod.billing_details.name, 'Layla Haddad', 'its billing name');
    const badSecret = await page.evaluate(() => window.__standIn.stripe.handleCardAction('not-a-secret'));
    check(Boolean(badSecret.error), 'handleCardAction refuses a malformed client secret');
    await axe(page, 'the stand-in fields');
  });

  journey('checkout at 375 px: the error flag marks the fields and nothing overflows sideways', async ({ newPage }) => {
    const [drink] = await drinksInStock(1);
    const page = await newPage({ width: 375, height: 812 });
    await addToBasket(page, drink);
    await page.goto(`${BASE_URL}/checkout`);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('Please check the highlighted fields.').waitFor();
    checkEqual(await page.getByLabel('Full name').getAttribute('aria-invalid'), 'true', 'full name marked');
    await page.getByTestId('card-number-error').waitFor();
    checkEqual(await page.getByTestId('card-number-error').textContent(), 'Enter your card number', 'card number marked');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    check(width <= 375, `nothing overflows sideways at 375 px (page is ${width} px wide)`);
    await axe(page, 'checkout with errors');
    await shot(page, 'checkout-errors-375');
  });
}
