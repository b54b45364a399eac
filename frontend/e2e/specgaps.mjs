// Browser journeys for the spec's gaps, closed: a drink's page shows that drink's reviews below the
// fold and reviews it there (the reviews page then lists it too); a basket saved under the earlier persisted
// names survives the upgrade to the spec's names; only the documented About and Contact slugs show those
// pages; the admin removes a picture from a drink (POST /api/delete/array/, then the drink's update). Each
// journey makes the data it needs through the API, so none depends on another.
import { adminHelpers } from './admin.mjs';

const tag = () => Math.random().toString(36).slice(2, 8);
// A 1x1 PNG, for a picture the back end accepts by its bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export default function registerSpecGapJourneys({ journey, check, checkEqual, eventually, BASE_URL }) {
  const { api, adminPage, adminSession } = adminHelpers({ check, eventually, BASE_URL });

  journey("a drink's page lists that drink's reviews below the fold and takes a review for it; the reviews page shows it too", async ({ newPage }) => {
    const [drink, other] = await api('GET', '/api/product/');
    const name = `Drink Page ${tag()}`;
    const otherName = `Other Drink ${tag()}`;
    await api('POST', '/api/reviews/create/', {
      rating: 4, comment: `${otherName} liked the other drink.`, fullname: otherName, email: `o.${tag()}@example.com`, products: other._id,
    });

    const page = await newPage({ width: 1280, height: 800 });
    const asked = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/home_uk/palestine/comment/reviews') || url.pathname === '/api/reviews/x/') asked.push(url);
    });
    await page.goto(`${BASE_URL}/drinks/${encodeURIComponent(drink._id)}`);
    await page.getByRole('heading', { level: 1, name: drink.name }).waitFor();
    const section = page.getByTestId('drink-reviews');
    await page.mouse.wheel(0, 2000);
    await section.waitFor();
    await section.getByTestId('average-rating').waitFor();
    await eventually(() => asked.map((u) => u.searchParams.get('ProductsId')), (ids) => ids.includes(drink._id), 'the page asked with ProductsId');
    check((await section.textContent()).includes(otherName) === false, "another drink's review is not listed");

    await section.getByRole('button', { name: 'Write a review' }).click();
    const form = section.getByTestId('review-form');
    await form.getByText(`Reviewing ${drink.name}`).waitFor();
    await form.locator('label', { hasText: '5 stars' }).click();
    await form.getByLabel('Your review').fill(`${name} says this drink is lovely.`);
    await form.getByLabel('Full name').fill(name);
    await form.getByLabel(/E-mail/).fill(`d.${tag()}@example.com`);
    await form.getByRole('button', { name: 'Send review' }).click();
    await section.getByTestId('review-thanks').waitFor();
    await section.getByText(name, { exact: true }).waitFor();
    check(asked.some((u) => u.pathname === '/api/reviews/x/'), 'the payload also went to /api/reviews/x/');

    const stored = await api('GET', `/api/home_uk/palestine/comment/reviews?pageNumber=1&ProductsId=${encodeURIComponent(drink._id)}`);
    check(stored.product.some((r) => r.fullname === name && r.products === drink._id), 'the back end holds the review for this drink');

    // Another page: the shop's reviews page lists it among all the drinks'.
    await page.goto(`${BASE_URL}/drinks/review`);
    await page.getByRole('heading', { level: 1, name: 'Customer Reviews' }).waitFor();
    await page.getByTestId('review-list').getByText(name, { exact: true }).waitFor();
  });

  journey('a basket saved under the earlier names is still there after the upgrade, now under AddCart', async ({ newPage }) => {
    const [drink] = await api('GET', '/api/product/');
    const page = await newPage({ width: 1280, height: 800 });
    const line = { product: drink._id, name: drink.name, image: drink.image[0] ?? '', quantity: drink.qty, price: drink.Discountprice ?? drink.price, des: drink.des, qty: 2 };
    await page.addInitScript((value) => {
      // Only before the app's first write: a reload must see what the app saved, not this seed again.
      if (!sessionStorage.getItem('seeded')) {
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem('persist:root', value);
      }
    }, JSON.stringify({
      cart: JSON.stringify({ cartItems: [line], address: {} }),
      _persist: JSON.stringify({ version: 1, rehydrated: true }),
    }));
    await page.goto(`${BASE_URL}/`);
    await eventually(() => page.getByTestId('basket-badge').textContent().catch(() => ''), (t) => t === '2', 'the badge counts the migrated line\'s two cases');
    const saved = await eventually(
      () => page.evaluate(() => JSON.parse(localStorage.getItem('persist:root') ?? '{}')),
      (root) => 'AddCart' in root,
      'the basket stored under AddCart',
    );
    check(!('cart' in saved), 'the earlier name is gone');
    checkEqual(JSON.parse(saved.AddCart).cartItems[0].qty, 2, 'the quantity kept');
    await page.reload();
    await eventually(() => page.getByTestId('basket-badge').textContent().catch(() => ''), (t) => t === '2', 'the badge after a reload');
  });

  journey('only the documented About and Contact slugs show those pages; others are the 404 page', async ({ newPage }) => {
    const page = await newPage({ width: 1280, height: 800 });
    await page.goto(`${BASE_URL}/about/drinks-about-us`);
    await page.getByRole('heading', { level: 1, name: 'About us' }).waitFor();
    await page.goto(`${BASE_URL}/contact/drinks-contact/`);
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
    for (const path of ['/about/anything', '/contact/anything/']) {
      checkEqual((await page.goto(`${BASE_URL}${path}`)).status(), 404, `${path} answers 404`);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      checkEqual(await page.getByRole('heading', { level: 1, name: 'Contact us' }).count(), 0, `${path} is not Contact`);
      checkEqual(await page.getByRole('heading', { level: 1, name: 'About us' }).count(), 0, `${path} is not About`);
    }
  });

  journey('the admin removes a picture from a drink: deleted from storage and gone from the drink', async ({ newPage }) => {
    const { token } = await adminSession();
    // A drink of its own with two pictures, uploaded the spec's single way (POST /api/uploading/).
    const upload = async () => {
      const form = new FormData();
      form.append('image', new Blob([PNG], { type: 'image/png' }), 'pixel.png');
      const response = await fetch(`${BASE_URL}/api/uploading/`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
      checkEqual(response.status, 201, 'POST /api/uploading/');
      return response.json();
    };
    const [gone, kept] = [await upload(), await upload()];
    const drinkName = `Picture Drink ${tag()}`;
    const drink = await api('POST', '/api/product/create/', { name: drinkName, qty: '6 x 330ml', price: 5, TheNumber: 10, image: [gone, kept] }, token);

    const page = await adminPage(newPage);
    await page.goto(`${BASE_URL}/new/uk/products`);
    await page.getByRole('button', { name: `Edit ${drinkName}` }).click();
    const removal = page.getByTestId('picture-removal');
    await removal.getByLabel(`Remove ${gone}`).check();
    page.once('dialog', (dialog) => void dialog.accept());
    await removal.getByRole('button', { name: 'Remove selected pictures' }).click();
    await removal.getByText('The picture is removed.').waitFor();
    checkEqual(JSON.stringify(await page.getByTestId('chosen-image').locator('code').allTextContents()), JSON.stringify([kept]), 'the form lists the kept picture');

    const after = await api('GET', `/api/product/${encodeURIComponent(drink._id)}`);
    checkEqual(JSON.stringify(after.image), JSON.stringify([kept]), 'the drink keeps only the other picture');
    const names = await api('GET', '/api/uploading/sh/', undefined, token);
    check(!names.includes(gone) && names.includes(kept), 'the removed picture is deleted from storage, the other stays');
  });
}
