// Browser journeys for a basket that sells and the shopper's endings: the drawer at 1280 px (a side panel
// over the dimmed page) and the full window at 375 px, each line's sum, delivery and the total by the API's
// delivery terms with the free-delivery bar, the header counting cases; a drink in the first screen of a
// phone's home page; a sold-out drink without a quantity stepper and Notify me's ending; a guest who makes
// an account from the order confirmation and has the order's details saved.
import AxeBuilder from '@axe-core/playwright';
import { adminHelpers } from './admin.mjs';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const money = (pounds) => gbp.format(pounds);
const random = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

export default function register({ journey, check, checkEqual, eventually, BASE_URL, DESKTOP, MOBILE }) {
  const { api, outbox, adminSession, paidOrder, orderPage, keyedOrder } = adminHelpers({ check, eventually, BASE_URL });

  async function axe(page, where) {
    const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    check(violations.length === 0, `${where}: ${violations.map((v) => `${v.id} [${v.impact}] ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`).join('; ')}`);
  }

  /** The box of a dialog once its slide-in has finished. */
  async function settledBox(locator) {
    await locator.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
    return locator.boundingBox();
  }

  /** The focused element is this locator's element. */
  const hasFocus = (locator) => locator.evaluate((el) => el === document.activeElement);

  /** A drink in stock whose two cases stay below free delivery (so the bar has a way to go). */
  async function cheapDrink(freeFrom) {
    const drinks = await api('GET', '/api/product/');
    const drink = drinks.filter((d) => d.TheNumber >= 10 && (d.Discountprice || d.price) * 2 < freeFrom).sort((a, b) => a.Discountprice - b.Discountprice)[0];
    check(drink, `a drink in stock under ${money(freeFrom / 2)}`);
    return drink;
  }

  journey('basket: a drawer at 1280 px (the full window at 375), lines as 2 × £x = £y, delivery and total by the API’s terms, the free-delivery bar, the header counting cases', async ({ newPage }) => {
    const terms = await api('GET', '/api/order/payment-settings/');
    check(terms.deliveryFee > 0 && terms.freeDeliveryFrom > 0, 'the API states the delivery terms');
    const drink = await cheapDrink(terms.freeDeliveryFrom);
    const unit = drink.discount > 0 ? drink.Discountprice : drink.price;
    const pence = (n) => Math.round(n * 100);
    const goods = (pence(unit) * 2) / 100;

    const page = await newPage(DESKTOP);
    await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(drink._id)}?qty=2`);
    await page.getByRole('button', { name: 'Add to basket' }).click();
    // Two cases of one drink: the header counts 2 items.
    await eventually(() => page.getByTestId('basket-badge').textContent().catch(() => ''), (t) => t === '2', 'the badge counts cases');
    checkEqual(await page.getByTestId('basket-button').getAttribute('aria-label'), 'Basket, 2 items', 'the basket button says 2 items');

    await page.getByTestId('basket-button').click();
    const dialog = page.getByRole('dialog', { name: 'Your basket' });
    await dialog.waitFor();
    const box = await settledBox(dialog);
    check(box.x > 400 && Math.round(box.x + box.width) === 1280 && box.height >= 790, `a drawer at the right edge, not the full window (${JSON.stringify(box)})`);
    checkEqual((await dialog.getByTestId('cart-line-total').textContent()).trim(), `2 × ${money(unit)} = ${money(goods)}`, 'the line’s sum');
    checkEqual((await dialog.getByTestId('cart-delivery').textContent()).trim(), money(terms.deliveryFee), 'delivery by the API’s fee');
    checkEqual((await dialog.getByTestId('cart-total').textContent()).trim(), money((pence(goods) + pence(terms.deliveryFee)) / 100), 'the total with delivery');
    const away = (pence(terms.freeDeliveryFrom) - pence(goods)) / 100;
    checkEqual((await dialog.getByTestId('free-delivery').textContent()).trim(), `Add ${money(away)} more for free delivery.`, 'how far free delivery is');
    const bar = dialog.getByRole('progressbar', { name: `Add ${money(away)} more for free delivery.` });
    checkEqual(Number(await bar.getAttribute('value')), goods, 'the bar’s value is the basket');
    checkEqual(Number(await bar.getAttribute('max')), terms.freeDeliveryFrom, 'the bar ends at the threshold');
    await axe(page, '1280 the open basket drawer');

    // Enough cases for free delivery: the line, the delivery and the bar follow.
    const up = dialog.getByRole('button', { name: `Increase quantity of ${drink.name}` });
    const needed = Math.ceil(terms.freeDeliveryFrom / unit);
    for (let qty = 2; qty < needed; qty += 1) await up.click();
    await eventually(() => dialog.getByTestId('cart-delivery').textContent(), (t) => t.trim() === 'Free', 'free delivery at the threshold');
    checkEqual((await dialog.getByTestId('free-delivery').textContent()).trim(), 'Your order has free delivery.', 'the bar says so');
    checkEqual((await page.getByTestId('basket-badge').textContent()).trim(), String(needed), 'the badge follows the cases');

    // A click on the dimmed page beside the drawer closes it, and the focus goes back to the basket button.
    await page.mouse.click(200, 400);
    await dialog.waitFor({ state: 'detached' });
    check(await hasFocus(page.getByTestId('basket-button')), 'focus back on the basket button');

    // At the checkout the order summary stays in view beside the card form as the page scrolls.
    await page.goto(`${BASE_URL}/checkout`);
    const summary = page.getByRole('heading', { name: 'Order summary' });
    await summary.waitFor();
    await page.getByLabel('Security code').waitFor();
    // Down to the Pay button (the end of the checkout's columns), well past where the summary starts.
    await page.getByRole('button', { name: /^Pay / }).evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await page.waitForTimeout(300);
    const held = await summary.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: window.innerHeight, scrollY: window.scrollY, position: getComputedStyle(el.closest('section')).position };
    });
    checkEqual(held.position, 'sticky', 'the summary is sticky on a wide screen');
    check(held.scrollY > 0 && held.top >= 0 && held.bottom <= held.height, `the summary is in view after scrolling (${JSON.stringify(held)})`);

    // On a phone the basket is the whole window.
    const phone = await newPage(MOBILE);
    await phone.goto(`${BASE_URL}/drinks/${encodeURIComponent(drink._id)}`);
    await phone.getByRole('button', { name: 'Add to basket' }).click();
    await phone.getByTestId('basket-button').click();
    const sheet = phone.getByRole('dialog', { name: 'Your basket' });
    await sheet.waitFor();
    const full = await settledBox(sheet);
    check(Math.round(full.x) === 0 && Math.round(full.width) === 375, `the full window at 375 px (${JSON.stringify(full)})`);
    await sheet.getByTestId('cart-delivery').filter({ hasText: money(terms.deliveryFee) }).waitFor();
    await axe(phone, '375 the open basket');
  });

  journey('home at 375 px: a drink shows in the first screen, without scrolling', async ({ newPage }) => {
    const page = await newPage(MOBILE);
    await page.goto(`${BASE_URL}/`);
    const first = page.getByTestId('featured-drinks').getByRole('listitem').first();
    await first.waitFor();
    const name = first.getByRole('heading').first();
    const seen = await name.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, scrollY: window.scrollY, height: window.innerHeight };
    });
    checkEqual(seen.scrollY, 0, 'not scrolled');
    check(seen.top >= 0 && seen.bottom <= seen.height, `the first drink's name is in the first screen (${JSON.stringify(seen)})`);
    const picture = await first.locator('img').first().boundingBox();
    check(picture && picture.y + picture.height <= seen.height, `its picture too (${JSON.stringify(picture)})`);
  });

  journey('a sold-out drink offers no quantity; Notify me says what happened, keeps the focus and confirms by e-mail', async ({ newPage }) => {
    const admin = await adminSession();
    const name = `Gone Ginger ${random()}`;
    const created = await api('POST', '/api/product/create/', { name, price: 2.5, qty: '12 x 330ml', TheNumber: 0 }, admin.token);
    const email = `waiting_${random()}@example.com`;
    const page = await newPage(DESKTOP);
    await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(created._id)}`);
    const soldOut = page.getByRole('button', { name: 'Sold out' });
    await soldOut.waitFor();
    check(await soldOut.isDisabled(), 'Sold out is not a button to press');
    checkEqual(await page.getByRole('button', { name: `Increase quantity of ${name}` }).count(), 0, 'no active quantity stepper');
    await page.getByRole('textbox', { name: 'E-mail me when it is back' }).fill(email);
    await page.getByRole('button', { name: 'Notify me' }).click();
    const done = page.getByTestId('back-in-stock-done');
    await done.waitFor();
    check((await done.textContent()).includes('confirm with the link we have e-mailed you'), 'the answer says a confirmation link is coming');
    await eventually(() => hasFocus(done), Boolean, 'the answer has the focus');
    await eventually(
      async () => (await outbox(email)).find((m) => m.subject === `Confirm your alert for ${name}`),
      Boolean,
      'the confirmation e-mail',
    );
    await api('DELETE', `/api/product/delete/${encodeURIComponent(created._id)}`, undefined, admin.token);
  });

  journey('a guest makes an account from the order confirmation; "Save these details" puts the order’s details on the profile; the guest order is under Your orders', async ({ newPage }) => {
    const drinks = (await api('GET', '/api/product/')).filter((d) => d.TheNumber >= 3);
    const email = `guest_${random()}@example.com`;
    const fullname = `Guest ${random()}`;
    const id = await paidOrder(email, drinks[0]._id, { fullname });
    const order = await keyedOrder(id);

    const page = await newPage(DESKTOP);
    // Arrive as the checkout sends a shopper here: the router's state says the order was just placed.
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('arrived')) {
        sessionStorage.setItem('arrived', '1');
        window.history.replaceState({ usr: { placed: true }, key: 'placed', idx: 0 }, '');
      }
    });
    // As the checkout sends the guest: with the key of the order's link.
    await page.goto(`${BASE_URL}${orderPage(id)}`);
    const offer = page.getByTestId('create-account');
    await offer.waitFor();
    check(await offer.getByRole('checkbox', { name: /Save these details/ }).isChecked(), '"Save these details" is ticked');
    await axe(page, 'the confirmation with the account offer');
    await offer.getByRole('button', { name: 'Create an account' }).click();

    await page.getByRole('textbox', { name: 'E-mail address' }).fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const mail = await eventually(async () => (await outbox(email)).at(-1), (m) => Boolean(m && /\b\d{6}\b/.test(m.text)), 'the login code');
    await page.getByRole('textbox', { name: 'Code from the e-mail' }).fill(/\b(\d{6})\b/.exec(mail.text)[1]);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();

    await page.waitForURL(`${BASE_URL}/account/order`);
    const said = page.getByTestId('details-outcome');
    await said.waitFor();
    check((await said.textContent()).includes(`Your details from order ${order.number} are saved`), 'the ending says the details are saved');
    await eventually(() => hasFocus(said), Boolean, 'the ending has the focus');
    await page.getByRole('link', { name: `Order ${order.number}` }).waitFor();
    const token = await page.evaluate(() => JSON.parse(JSON.parse(localStorage.getItem('persist:root')).Auth).token);
    const profile = await api('GET', '/api/user/profile/', undefined, token);
    checkEqual(`${profile.fullname}|${profile.phone}|${profile.address}`, `${fullname}|07700 900123|${order.address}`, 'the profile has the order’s details');
    await axe(page, 'your orders after saving the details');
  });
}
