// Browser journeys for the admin's drinks (/new/uk/products): add a drink through the form (after the form
// and the server refuse bad input), see it in the shop, mark it sold out, delete it; images
// (/new/uk/show): upload a real PNG, refuse an SVG, pick it for a drink, delete; and finding a drink
// at 1280 and 375 px: sort and filter the shop (kept in the address, restored by back), the cards' ratings,
// a category page, and search forgiving a typo. run.mjs registers them.
import { deflateSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { adminHelpers } from './admin.mjs';

/** A real 2x2 PNG, built here so the journey needs no fixture file. */
function png() {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (kind, data) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(kind, 'ascii'), data]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = [0, 11, 93, 52, 246, 185, 60];
  const pixels = deflateSync(Buffer.from([...row, ...row]));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

const tag = () => Math.random().toString(36).slice(2, 8);

/** The price paid on each card of the list, in order: the first amount in pounds on the card. */
async function cardPrices(list) {
  const texts = await list.getByRole('listitem').allTextContents();
  return texts.map((text) => Number((/£([\d,]+\.\d{2})/.exec(text)?.[1] ?? 'NaN').replace(/,/g, '')));
}

export default function registerCatalogJourneys({ journey, check, checkEqual, eventually, shot, BASE_URL, DESKTOP, MOBILE }) {
  const { api, adminPage, adminSession } = adminHelpers({ check, eventually, BASE_URL });

  for (const [label, viewport] of [['1280', DESKTOP], ['375', MOBILE]]) {
    journey(`find a drink at ${label} px: sort by price, in stock only, the address holds it, back restores it`, async ({ newPage }) => {
      // A sold-out drink cheaper than any other: first by price, gone when only drinks in stock are shown.
      const token = (await adminSession()).token;
      const soldOut = await api('POST', '/api/product/create/', { name: `Bargain Pop ${tag()}`, price: 0.5, qty: '6 x 330ml', TheNumber: 0 }, token);
      try {
        const page = await newPage(viewport);
        await page.goto(`${BASE_URL}/shop/drinks/`);
        const list = page.getByTestId('drinks-list');
        await list.getByRole('listitem').first().waitFor();

        // The cards carry ratings in words: the seeded reviews give Classic Cola one of 5 stars.
        const colaCard = list.getByRole('listitem').filter({ hasText: 'Classic Cola' });
        await colaCard.getByText('5 out of 5, 1 review').waitFor({ state: 'attached' });
        check((await list.getByRole('listitem').filter({ hasText: soldOut.name }).textContent()).includes('No reviews yet'), 'a new drink says it has no reviews');

        await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Price, low to high' });
        await page.waitForURL(/\/shop\/drinks\/\?sort=price-asc$/);
        // The new drink may come first in the featured order too: the sorted list is the one whose prices rise.
        await eventually(() => cardPrices(list), (p) => p.length > 1 && p.every((x, i) => i === 0 || x >= p[i - 1]), 'prices rise down the list');
        check((await list.getByRole('listitem').first().textContent()).includes(soldOut.name), 'the cheapest (sold-out) drink first');

        await page.getByRole('checkbox', { name: 'In stock only' }).check();
        await page.waitForURL(/\?sort=price-asc&inStock=true$/);
        // The list may be empty for a moment while the filtered drinks load: wait for drinks without it.
        const filtered = await eventually(
          async () => ({ soldOutShown: await list.getByRole('listitem').filter({ hasText: soldOut.name }).count(), prices: await cardPrices(list) }),
          (now) => now.soldOutShown === 0 && now.prices.length > 0,
          'the sold-out drink filtered out, the drinks in stock listed',
        );
        checkEqual(await list.getByText('Sold out').count(), 0, 'sold-out badges when only drinks in stock are shown');
        const inStockPrices = filtered.prices;
        check(inStockPrices.every((p, i) => i === 0 || p >= inStockPrices[i - 1]), 'still sorted by price');

        // The address is the choice: a fresh visit to it shows the same list.
        const shared = await newPage(viewport);
        await shared.goto(page.url());
        await shared.getByTestId('drinks-list').getByRole('listitem').first().waitFor();
        checkEqual(await shared.getByRole('combobox', { name: 'Sort by' }).inputValue(), 'price-asc', 'the sort a shared link opens with');
        check(await shared.getByRole('checkbox', { name: 'In stock only' }).isChecked(), 'the filter a shared link opens with');
        checkEqual(JSON.stringify(await cardPrices(shared.getByTestId('drinks-list'))), JSON.stringify(inStockPrices), 'the shared link lists the same drinks');
        await shared.close();

        // Back undoes the filter, then the sort; forward brings the filter back.
        await page.goBack();
        await page.waitForURL(/\/shop\/drinks\/\?sort=price-asc$/);
        await eventually(() => page.getByRole('checkbox', { name: 'In stock only' }).isChecked(), (c) => c === false, 'the filter unticked after back');
        await list.getByRole('listitem').filter({ hasText: soldOut.name }).waitFor();
        await page.goBack();
        await page.waitForURL(/\/shop\/drinks\/$/);
        await eventually(() => page.getByRole('combobox', { name: 'Sort by' }).inputValue(), (v) => v === 'featured', 'the featured order after back');
        await page.goForward();
        await page.waitForURL(/\?sort=price-asc$/);
        await eventually(() => page.getByRole('combobox', { name: 'Sort by' }).inputValue(), (v) => v === 'price-asc', 'the sort after forward');

        // A price range, applied with its button.
        await page.getByRole('textbox', { name: 'Lowest price (£)' }).fill('9');
        await page.getByRole('textbox', { name: 'Highest price (£)' }).fill('11');
        await page.getByRole('button', { name: 'Apply' }).click();
        await page.waitForURL(/\?sort=price-asc&minPrice=9&maxPrice=11$/);
        await eventually(async () => (await cardPrices(list)).every((p) => p >= 9 && p <= 11), Boolean, 'only drinks from £9 to £11');
        await shot(page, `find-a-drink-shop-${label}`);
        const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
        check(violations.length === 0, `axe on the filtered shop: ${violations.map((v) => `${v.id} (${v.nodes.length})`).join(', ')}`);

        // A category page says which category it is.
        await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Colas' });
        await page.getByRole('heading', { level: 1, name: 'Colas' }).waitFor();
        await eventually(() => page.title(), (title) => title.startsWith('Colas | Shop drinks'), 'the category page title');

        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        check(width <= viewport.width, `nothing overflows sideways (page is ${width} px wide at ${viewport.width})`);
      } finally {
        await api('DELETE', `/api/product/delete/${soldOut._id}`, undefined, token);
      }
    });

    journey(`find a drink at ${label} px: search "colla" answers "Did you mean cola?" and "lemmon" finds the lemon drink`, async ({ newPage }) => {
      const page = await newPage(viewport);
      await page.goto(`${BASE_URL}/drinks/uk?search=colla`);
      const hint = page.getByRole('status').filter({ hasText: 'Did you mean' });
      await hint.waitFor();
      const results = page.getByTestId('search-results');
      await results.getByRole('link', { name: 'Classic Cola' }).waitFor();
      await shot(page, `find-a-drink-did-you-mean-${label}`);
      await hint.getByRole('link', { name: 'cola' }).click();
      await page.waitForURL(/\/drinks\/uk\?search=cola$/);
      await page.getByRole('heading', { level: 1, name: 'Results for “cola”' }).waitFor();
      await results.getByRole('link', { name: 'Cherry Cola' }).waitFor();
      checkEqual(await page.getByText('Did you mean').count(), 0, '"Did you mean" once the search matches as typed');

      await page.goto(`${BASE_URL}/drinks/uk?search=lemmon`);
      await page.getByRole('status').filter({ hasText: 'Did you mean lemon?' }).waitFor();
      await results.getByRole('link', { name: 'Lemon & Lime' }).waitFor();
    });
  }

  journey('the admin adds a drink on the products screen, the shop shows it, then it sells out and is deleted', async ({ newPage }) => {
    const page = await adminPage(newPage);
    const name = `Cherry Pop ${tag()}`;
    await page.goto(`${BASE_URL}/new/uk/products`);
    await page.getByRole('heading', { name: 'Products', level: 2 }).waitFor();
    await page.getByTestId('admin-product').first().waitFor();
    await page.getByRole('button', { name: 'New drink' }).click();

    // The form asks for the essentials first; the server names a field it refuses.
    await page.getByRole('button', { name: 'Add drink' }).click();
    await page.getByText('The name needs at least 3 characters').waitFor();
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Pack label').fill('24 x 330ml');
    await page.getByLabel('Price (£)').fill('18.50');
    await page.getByLabel('Discount (% off)').fill('150');
    await page.getByRole('button', { name: 'Add drink' }).click();
    await eventually(() => page.getByLabel('Discount (% off)').getAttribute('aria-invalid'), (v) => v === 'true', 'the discount marked by the server');
    await page.getByLabel('Discount (% off)').fill('10');
    await page.getByLabel('Units in stock').fill('40');
    await page.getByRole('button', { name: 'Add drink' }).click();
    await page.getByRole('status').filter({ hasText: `${name} is added to the shop.` }).waitFor();
    const row = page.getByTestId('admin-product').filter({ hasText: name });
    await row.waitFor();

    const stored = (await api('GET', '/api/product/')).find((p) => p.name === name);
    checkEqual(stored?.Discountprice, 16.65, 'the discounted price the server worked out');

    const shop = await newPage({ width: 1280, height: 900 });
    await shop.goto(`${BASE_URL}/drinks/${stored._id}`);
    await shop.getByRole('heading', { level: 1, name }).waitFor();
    await shop.getByText('£16.65').first().waitFor();

    // Sold out: stock to 0 on the edit form.
    await row.getByRole('button', { name: `Edit ${name}` }).click();
    await page.getByLabel('Units in stock').fill('0');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: `${name} is saved.` }).waitFor();
    await row.getByText('Sold out').waitFor();
    await shop.reload();
    await shop.getByText('Sold out').first().waitFor();

    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('status').filter({ hasText: `${name} is deleted.` }).waitFor();
    await eventually(() => page.getByTestId('admin-product').filter({ hasText: name }).count(), (n) => n === 0, 'the drink gone from the list');
    check(!(await api('GET', '/api/product/')).some((p) => p.name === name), 'the drink is deleted on the server');
  });

  journey('images: the admin uploads a PNG (an SVG is refused), sees its preview, adds a picture to a drink, deletes', async ({ newPage }) => {
    const page = await adminPage(newPage);
    await page.goto(`${BASE_URL}/new/uk/show`);
    await page.getByRole('heading', { name: 'Images', level: 2 }).waitFor();
    const chooser = page.getByLabel(/Images to upload/);

    await chooser.setInputFiles({ name: 'logo.svg', mimeType: 'image/png', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'image: logo.svg is not a PNG, JPEG, WebP or GIF image' }).waitFor();

    const before = new Set(await api('GET', '/api/uploading/sh/', undefined, (await adminSession()).token));
    await chooser.setInputFiles({ name: 'can.png', mimeType: 'image/png', buffer: png() });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'The image is uploaded.' }).waitFor();
    const after = await api('GET', '/api/uploading/sh/', undefined, (await adminSession()).token);
    const name = after.find((n) => !before.has(n));
    check(name && name.endsWith('.png') && !name.includes('can'), `a server-made name for the upload (${name})`);
    const tile = page.getByTestId('gallery-image').filter({ hasText: name });
    await tile.waitFor();
    const width = await eventually(() => tile.locator('img').evaluate((img) => img.complete && img.naturalWidth), (w) => w === 2, 'the preview loaded from /uploads');
    checkEqual(width, 2, 'the preview image width');

    // The picture picked for a drink on its edit form (the gallery's checkbox is labelled by its thumbnail).
    const drink = await api('POST', '/api/product/create/', { name: `Picture Pop ${tag()}`, price: 3, qty: '6 x 330ml' }, (await adminSession()).token);
    await page.goto(`${BASE_URL}/new/uk/products`);
    await page.getByRole('button', { name: `Edit ${drink.name}` }).click();
    await page.getByRole('checkbox', { name }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await eventually(async () => (await api('GET', `/api/product/${drink._id}`)).image, (image) => image.length === 1 && image[0] === name, 'the drink saved with the picked picture');
    await api('DELETE', `/api/product/delete/${drink._id}`, undefined, (await adminSession()).token);

    await page.goto(`${BASE_URL}/new/uk/show`);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('status').filter({ hasText: `${name} is deleted.` }).waitFor();
    await eventually(() => page.getByTestId('gallery-image').filter({ hasText: name }).count(), (n) => n === 0, 'the image gone from the grid');
    const gone = await fetch(`${BASE_URL}/uploads/${name}`);
    checkEqual(gone.status, 404, 'the deleted image is no longer served');
  });
}
