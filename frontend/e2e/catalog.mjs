// Browser journeys for the admin's drinks (/new/uk/products): add a drink through the form (after the form
// and the server refuse bad input), see it in the shop, mark it sold out, delete it; and images
// (/new/uk/show): upload a real PNG, refuse an SVG, attach a picture to a drink, delete. run.mjs registers them.
import { deflateSync } from 'node:zlib';
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

export default function registerCatalogJourneys({ journey, check, checkEqual, eventually, BASE_URL }) {
  const { api, adminPage, adminSession } = adminHelpers({ check, eventually, BASE_URL });

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

    // A picture straight onto a drink from its edit form.
    const drink = await api('POST', '/api/product/create/', { name: `Picture Pop ${tag()}`, price: 3, qty: '6 x 330ml' }, (await adminSession()).token);
    await page.goto(`${BASE_URL}/new/uk/products`);
    await page.getByRole('button', { name: `Edit ${drink.name}` }).click();
    await page.getByLabel(/Add pictures/).setInputFiles({ name: 'side.png', mimeType: 'image/png', buffer: png() });
    await page.getByRole('button', { name: 'Upload pictures' }).click();
    await page.getByText('The picture is added to the drink.').waitFor();
    const stored = await api('GET', `/api/product/${drink._id}`);
    checkEqual(stored.image.length, 1, 'pictures on the drink');
    checkEqual(await page.getByLabel('Images', { exact: true }).inputValue(), stored.image[0], 'the form lists the new picture');
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
