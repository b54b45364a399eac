// Browser journeys for the admin's drinks (/new/uk/products): add a drink through the form (after the form
// and the server refuse bad input), see it in the shop, mark it sold out, delete it. run.mjs registers them.
import { adminHelpers } from './admin.mjs';

const tag = () => Math.random().toString(36).slice(2, 8);

export default function registerCatalogJourneys({ journey, check, checkEqual, eventually, BASE_URL }) {
  const { api, adminPage } = adminHelpers({ check, eventually, BASE_URL });

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
}
