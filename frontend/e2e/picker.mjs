// Pictures by picking, at 1280 and 375 px: on the new-drink form the admin uploads a
// picture in place and ticks another in the gallery, orders them with the arrows, saves, and the drink page
// shows them in that order. The form has no image-name text box; axe finds nothing on it. run.mjs registers it.
import AxeBuilder from '@axe-core/playwright';
import { adminHelpers } from './admin.mjs';

const tag = () => Math.random().toString(36).slice(2, 8);
// A 1x1 PNG, a picture the back end accepts by its bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export default function registerPickerJourneys({ journey, check, checkEqual, eventually, shot, BASE_URL, DESKTOP, MOBILE }) {
  const { api, adminSession, adminPage } = adminHelpers({ check, eventually, BASE_URL });

  for (const [label, viewport] of [
    ['1280', DESKTOP],
    ['375', MOBILE],
  ]) {
    journey(`pictures by picking at ${label} px: a new drink uploads one in place, picks one from the gallery, orders them; the drink page shows that order`, async ({ newPage }) => {
      const { token } = await adminSession();
      // A picture already in the gallery, uploaded the spec's single way.
      const form = new FormData();
      form.append('image', new Blob([PNG], { type: 'image/png' }), 'shelf.png');
      const made = await fetch(`${BASE_URL}/api/uploading/`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
      checkEqual(made.status, 201, 'POST /api/uploading/');
      const picked = await made.json();

      const page = await adminPage(async () => newPage(viewport));
      const name = `Picked Pop ${tag()}`;
      await page.goto(`${BASE_URL}/new/uk/products`);
      await page.getByTestId('admin-product').first().waitFor();
      await page.getByRole('button', { name: 'New drink' }).click();
      await page.getByLabel('Name').fill(name);
      await page.getByLabel('Pack label').fill('12 x 330ml');
      await page.getByLabel('Price (£)').fill('9.00');
      await page.getByLabel('Units in stock').fill('12');
      checkEqual(await page.getByRole('textbox', { name: /Images/ }).count(), 0, 'no image name is typed');

      // Uploaded in place, before the drink exists: it joins the chosen list at once.
      const picker = page.getByTestId('image-picker');
      await picker.getByLabel(/Upload new pictures/).setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: PNG });
      await picker.getByRole('button', { name: 'Upload pictures' }).click();
      await picker.getByText('The picture is uploaded and chosen.').waitFor();
      const chosen = picker.getByTestId('chosen-image');
      const uploaded = await chosen.first().locator('code').textContent();
      check(uploaded && uploaded !== picked && uploaded.endsWith('.png'), `the server's name for the upload (${uploaded})`);
      await eventually(() => picker.getByRole('checkbox', { name: uploaded }).isChecked(), (on) => on, 'the upload ticked in the gallery');

      // Picked from the gallery (the thumbnail is the checkbox's label), then moved to the front.
      await picker.getByRole('checkbox', { name: picked }).check();
      await picker.getByRole('button', { name: `Move ${picked} up` }).click();
      checkEqual(JSON.stringify(await chosen.locator('code').allTextContents()), JSON.stringify([picked, uploaded]), 'the chosen order');

      const { violations } = await new AxeBuilder({ page }).include('[data-testid="image-picker"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      check(bad.length === 0, `the picker at ${label} px: ${bad.map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`).join('; ')}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      check(width <= viewport.width, `nothing overflows sideways at ${label} px (page is ${width} px wide)`);
      await picker.scrollIntoViewIfNeeded();
      await shot(page, `image-picker-${label}`);

      await page.getByRole('button', { name: 'Add drink' }).click();
      await page.getByRole('status').filter({ hasText: `${name} is added to the shop.` }).waitFor();
      const stored = (await api('GET', '/api/product/')).find((p) => p.name === name);
      checkEqual(JSON.stringify(stored?.image), JSON.stringify([picked, uploaded]), 'the drink saved with the pictures in the chosen order');

      // The drink page: the first is the main picture, the thumbnails in the same order.
      const shop = await newPage(viewport);
      await shop.goto(`${BASE_URL}/drinks/${stored._id}`);
      await shop.getByRole('heading', { level: 1, name }).waitFor();
      check((await shop.getByRole('img', { name, exact: true }).getAttribute('src')).endsWith(`/uploads/${picked}`), 'the main picture is the one ordered first');
      const thumbs = await shop.getByRole('list', { name: 'More pictures' }).locator('img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')));
      checkEqual(JSON.stringify(thumbs.map((src) => src.split('/').pop())), JSON.stringify([picked, uploaded]), 'the thumbnails in the chosen order');
      await api('DELETE', `/api/product/delete/${stored._id}`, undefined, token);
    });
  }
}
