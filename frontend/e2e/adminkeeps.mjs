// Browser journeys for an admin that is safe: paid orders are never deleted (no Delete in the table, 409 from
// the API), a finished order is archived off the default list and kept in a search, "Show archived" and the
// CSV; every move answers in a focused status and changes its row in place; on a phone the orders table is
// cards, status and actions in view; the drink form's Save stays in view; a policy's text has its preview.
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { adminHelpers } from './admin.mjs';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export default function register({ journey, check, checkEqual, eventually, BASE_URL, MOBILE }) {
  const { api, adminSession, adminPage, paidOrder } = adminHelpers({ check, eventually, BASE_URL });
  const fresh = (prefix) => `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;

  async function axe(page, where) {
    const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    check(violations.length === 0, `${where}: ${violations.map((v) => `${v.id} [${v.impact}] ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`).join('; ')}`);
  }

  const hasFocus = (locator) => locator.evaluate((el) => el === document.activeElement);

  /** A paid order moved on to `statuses` by the admin, through the API: its id and number. */
  async function orderThrough(email, statuses) {
    const { token } = await adminSession();
    const [drink] = (await api('GET', '/api/product/')).filter((d) => d.TheNumber >= 3);
    const id = await paidOrder(email, drink._id);
    for (const status of statuses) await api('PUT', `/api/order/update/${encodeURIComponent(id)}`, { status }, token);
    const order = await api('GET', `/api/order/Orderdetails/${encodeURIComponent(id)}`, undefined, token);
    return { id, number: order.number };
  }

  journey('admin orders: no Delete for a paid order (the API refuses too); archive keeps it in a search, "Show archived" and the CSV; a move answers in a focused status, in place', async ({ newPage }) => {
    const email = fresh('keeps');
    const delivered = await orderThrough(email, ['shipped', 'delivered']);
    const waiting = await orderThrough(email, []);
    const { token } = await adminSession();

    // The API keeps paid orders whatever the screen shows.
    const refused = await fetch(`${BASE_URL}/api/order/delete/${encodeURIComponent(delivered.id)}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
    checkEqual(refused.status, 409, 'deleting a paid order is refused');
    check((await refused.json()).message.includes('archive it instead'), 'the refusal says to archive');

    const page = await adminPage(newPage);
    await page.goto(`${BASE_URL}/new/uk/order?q=${encodeURIComponent(email)}`);
    const row = (number) => page.getByTestId('admin-order').filter({ hasText: number });
    await row(delivered.number).waitFor();
    checkEqual(await page.getByRole('button', { name: /^Delete order/ }).count(), 0, 'no Delete for paid orders');

    // A move: said in a status that has the focus, the row changed in place.
    await row(waiting.number).getByRole('combobox').selectOption('shipped');
    await row(waiting.number).getByRole('button', { name: 'Update' }).click();
    const notice = page.getByTestId('write-notice');
    await notice.filter({ hasText: `Order ${waiting.number} is now shipped.` }).waitFor();
    await eventually(() => hasFocus(notice), Boolean, 'the notice has the focus');
    checkEqual((await row(waiting.number).getByTestId('admin-order-status').textContent()).trim(), 'shipped', 'the row says shipped');

    // Archived: kept in this search, marked.
    await row(delivered.number).getByRole('button', { name: `Archive order ${delivered.number}` }).click();
    await notice.filter({ hasText: `Order ${delivered.number} is archived` }).waitFor();
    await row(delivered.number).getByTestId('admin-order-archived').waitFor();
    await axe(page, 'the orders table with an archived order');

    // Off the default list, and the count says the CSV keeps it.
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByTestId('table-count').filter({ hasText: /archived not listed/ }).waitFor();
    checkEqual(await row(delivered.number).count(), 0, 'the archived order is off the default list');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = await readFile(await download.path(), 'utf8');
    const [header, ...rows] = csv.replace(/^\uFEFF/, '').split('\r\n');
    const line = rows.find((l) => l.includes(delivered.id));
    const archivedAt = line?.split(',')[header.split(',').indexOf('Archived')];
    check(/^\d{4}-\d\d-\d\dT/.test(archivedAt ?? ''), `the CSV keeps the archived order with when it was archived (${line})`);

    // "Show archived orders" lists it again, and Unarchive brings it back.
    // The box follows the URL, which a router transition moves a moment after the click: wait for it.
    const showArchived = page.getByRole('checkbox', { name: 'Show archived orders' });
    await showArchived.click();
    await eventually(() => showArchived.isChecked(), Boolean, '"Show archived orders" is ticked');
    await row(delivered.number).getByRole('button', { name: `Unarchive order ${delivered.number}` }).click();
    await notice.filter({ hasText: `Order ${delivered.number} is back on the list.` }).waitFor();
    const after = await api('GET', `/api/order/Orderdetails/${encodeURIComponent(delivered.id)}`, undefined, token);
    checkEqual(after.archivedAt, null, 'the API has it back');
  });

  journey('admin on a phone: the orders table is cards, status and actions in view without scrolling sideways', async ({ newPage }) => {
    const email = fresh('cards');
    const order = await orderThrough(email, []);
    const page = await adminPage(() => newPage(MOBILE));
    await page.goto(`${BASE_URL}/new/uk/order?q=${encodeURIComponent(email)}`);
    const card = page.getByTestId('admin-order').filter({ hasText: order.number });
    await card.waitFor();
    const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    check(width.scroll <= width.inner, `the page keeps to the window (${JSON.stringify(width)})`);
    const region = await page.locator('[role="region"][aria-label="Orders"]').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    check(region.scroll <= region.client + 1, `the table does not scroll sideways (${JSON.stringify(region)})`);
    for (const [what, locator] of [
      ['status', card.getByTestId('admin-order-status')],
      ['the status choice', card.getByRole('combobox')],
      ['Update', card.getByRole('button', { name: 'Update' })],
    ]) {
      const box = await locator.boundingBox();
      check(box && box.x >= 0 && box.x + box.width <= 375, `${what} is within the 375 px window (${JSON.stringify(box)})`);
    }
    // Each cell says which column it is (its column's name drawn before it).
    const label = await card.locator('[data-label="Status"]').evaluate((el) => getComputedStyle(el, '::before').content);
    checkEqual(label, '"Status"', 'the status cell names its column');
    await axe(page, '375 the orders cards');
  });

  journey('admin forms: the drink form in sections with Save in view; a policy’s text beside its preview; a save answers in a focused status', async ({ newPage }) => {
    const page = await adminPage(newPage);
    await page.goto(`${BASE_URL}/new/uk/products`);
    await page.getByRole('button', { name: 'New drink' }).click();
    const form = page.getByRole('form', { name: 'New drink' });
    for (const section of ['Basics', 'Price and promotion', 'Stock', 'Food information', 'Pictures']) {
      await form.getByRole('group', { name: section, exact: true }).waitFor();
    }
    // Scrolled to the top of the long form, Save is still in the window.
    await form.getByLabel('Name').scrollIntoViewIfNeeded();
    const save = await form.getByRole('button', { name: 'Add drink' }).boundingBox();
    const height = await page.evaluate(() => window.innerHeight);
    check(save && save.y >= 0 && save.y + save.height <= height, `Save is in view (${JSON.stringify(save)}, window ${height})`);
    await axe(page, 'the drink form');

    await page.goto(`${BASE_URL}/new/uk/policies`);
    const text = page.getByLabel('Text');
    await text.waitFor();
    await page.getByLabel('Title').fill('Preview policy');
    await text.fill('## Who we are\nA small drinks shop.');
    const preview = page.getByTestId('policy-preview');
    await preview.getByRole('heading', { name: 'Who we are' }).waitFor();
    const [editor, shown] = [await text.boundingBox(), await preview.boundingBox()];
    check(shown.x >= editor.x + editor.width - 1, `the preview stands beside the editor (${JSON.stringify({ editor, shown })})`);
    await axe(page, 'the policy editor with its preview');
    await page.getByRole('button', { name: 'Create' }).click();
    const notice = page.getByTestId('write-notice');
    await notice.filter({ hasText: 'Created “Preview policy”.' }).waitFor();
    await eventually(() => hasFocus(notice), Boolean, 'the notice has the focus');
    await page.getByTestId('policy-list').getByText('Preview policy').waitFor();
    const { token } = await adminSession();
    const created = (await api('GET', '/api/policy/')).find((p) => p.name === 'Preview policy');
    if (created) await api('DELETE', `/api/policy/delete/${encodeURIComponent(created._id)}`, undefined, token);
  });
}
