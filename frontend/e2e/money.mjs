// Money after the payment, in the browser against the local stack (localstripe and its shim): the admin
// refunds part of an order from its view, the customer's order page and credit note say so and the refund
// e-mail links the note; a dispute opened at the local Stripe puts the order on hold (the order view, the
// dashboard) until the bank decides; the sales results reconcile the month with Stripe.
import { adminHelpers } from './admin.mjs';

export default function registerMoneyJourneys({ journey, check, checkEqual, eventually, shot, BASE_URL }) {
  const { api, outbox, adminSession, adminPage, paidOrder, orderPage } = adminHelpers({ check, eventually, BASE_URL });
  const fresh = (prefix) => `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;

  /** The local Stripe (localstripe behind its shim), called as the shop's server calls it. */
  async function localStripe() {
    const env = await api('GET', '/_local/env');
    const base = env.OrdersFunction.STRIPE_API_BASE;
    // localstripe takes any secret key of the right shape; the shop's own is the local one.
    const key = env.OrdersFunction.STRIPE_SECRET_KEY?.startsWith('sk_') ? env.OrdersFunction.STRIPE_SECRET_KEY : 'sk_test_local_shop';
    return async (method, path, form) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form ? new URLSearchParams(form) : undefined,
      });
      const json = await response.json();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };
  }

  /** The order's PaymentIntent, from the payment events the shim lists (it names the order in metadata). */
  async function intentOf(stripe, orderId) {
    const events = await stripe('GET', '/_shim/events');
    const event = events.data.find((e) => e.type === 'payment_intent.succeeded' && e.data.object.metadata?.order_id === orderId);
    check(event, `the payment event of order ${orderId}`);
    return event.data.object.id;
  }

  journey('money: the admin refunds one drink of a delivered order from its view; the customer sees partly refunded, the credit note with its VAT, and the refund e-mail; a dispute holds the order until the bank decides; the month reconciles', async ({ newPage }) => {
    const drinks = (await api('GET', '/api/product/')).filter((d) => d.TheNumber >= 4);
    check(drinks.length >= 1, 'a drink in stock to order');
    const drink = drinks[0];
    const email = fresh('refund');
    const id = await paidOrder(email, drink._id, { qty: 2 });
    const { token } = await adminSession();
    for (const status of ['shipped', 'delivered']) await api('PUT', `/api/order/update/${encodeURIComponent(id)}`, { status }, token);
    const stockBefore = (await api('GET', `/api/product/${drink._id}`)).TheNumber;

    // The admin refunds one of the two, back on sale, from the order's view.
    const page = await adminPage(newPage);
    await page.goto(`${BASE_URL}/new/uk/order/${encodeURIComponent(id)}`);
    const form = page.getByTestId('refund-form');
    await form.waitFor();
    await form.getByLabel('Chosen drinks or the delivery').check();
    await form.getByLabel(/^Units of .* to refund, up to 2$/).fill('1');
    await form.getByLabel(/Put the refunded drinks back on sale/).check();
    await form.getByLabel('Reason (kept with the refund)').fill('One can arrived dented');
    const button = form.getByRole('button', { name: /^Refund £/ });
    const figure = (await button.textContent()).replace('Refund ', '');
    page.once('dialog', (dialog) => void dialog.accept());
    await button.click();
    const row = page.getByTestId('admin-order-refund');
    await row.waitFor();
    check((await row.textContent()).includes(figure), `the refund of ${figure} is listed`);
    await eventually(() => page.getByTestId('admin-order-view-payment').textContent(), (t) => t.includes(`partly refunded ${figure}`), 'partly refunded');
    checkEqual((await api('GET', `/api/product/${drink._id}`)).TheNumber, stockBefore + 1, 'the refunded can is back on sale');
    await shot(page, 'admin-order-refunded-1280');

    // The customer's order page, its credit note, and the e-mail.
    const customer = await newPage({ width: 1280, height: 900 });
    await customer.goto(`${BASE_URL}${orderPage(id)}`);
    const note = customer.getByTestId('payment-note');
    await eventually(() => note.getAttribute('data-state'), (s) => s === 'partly-refunded', 'the order page says partly refunded');
    check((await note.textContent()).includes(`partly refunded ${figure}`), 'with the amount');
    await customer.getByRole('link', { name: /^Credit note CN-\d+$/ }).click();
    await customer.getByRole('heading', { name: /^Credit note CN-\d+$/ }).waitFor();
    check((await customer.getByTestId('credit-note-totals').textContent()).includes(figure), 'the credit note is for the refund');
    await shot(customer, 'credit-note-1280');
    const mail = await eventually(async () => (await outbox(email)).find((m) => m.subject.startsWith(`A refund of ${figure}`)), Boolean, 'the refund e-mail');
    check(/receipt\?creditNote=re_/.test(mail.text), 'the refund e-mail links the credit note');

    // A dispute at the local Stripe: its event reaches the shop, the order is held.
    const stripe = await localStripe();
    const intent = await intentOf(stripe, id);
    const dispute = await stripe('POST', '/_shim/disputes', { payment_intent: intent, reason: 'product_not_received' });
    // Its event arrives about a second later, as Stripe's would.
    await eventually(
      async () => (await api('GET', `/api/order/Orderdetails/${encodeURIComponent(id)}`, undefined, token)).onHold,
      (onHold) => onHold === true,
      'the dispute holds the order',
      15000,
    );
    await page.reload();
    await page.getByTestId('order-on-hold').waitFor();
    check((await page.getByTestId('order-on-hold').textContent()).includes('product_not_received'), 'with why');
    await page.goto(`${BASE_URL}/new/uk/`);
    const held = page.getByTestId('held-orders');
    await eventually(async () => (await held.textContent()) ?? '', (t) => t.includes('product_not_received'), 'the dashboard lists the held order');
    await stripe('POST', `/_shim/disputes/${dispute.id}/close`, { status: 'won' });
    await eventually(
      async () => (await api('GET', `/api/order/Orderdetails/${encodeURIComponent(id)}`, undefined, token)).onHold,
      (onHold) => onHold === false,
      'the won dispute frees the order',
      15000,
    );

    // The month reconciles: the order's payment and refund match Stripe's.
    await page.goto(`${BASE_URL}/new/uk/result`);
    const box = page.getByTestId('reconciliation');
    await box.getByRole('button', { name: 'Reconcile' }).click();
    await box.getByTestId('reconciliation-figures').waitFor();
    const order = await api('GET', `/api/order/Orderdetails/${encodeURIComponent(id)}`, undefined, token);
    const differences = await box.getByTestId('reconciliation-difference').allTextContents();
    check(!differences.some((d) => d.includes(order.number) && !d.includes('Dispute')), `no difference about ${order.number}: ${differences.join(' | ')}`);
    await box.getByRole('button', { name: /^Download the month as CSV/ }).waitFor();
    await shot(page, 'admin-reconciliation-1280');
  });
}
