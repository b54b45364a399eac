// Browser journeys for customer reviews: a shopper writes a review on the reviews page (the rules first,
// stars with the keyboard) and sees it listed and counted; 'View more comments' pages through; the admin
// deletes a review after a confirm and the public page drops it. run.mjs registers them; each journey makes
// the data it needs through the API, so none depends on another.

import AxeBuilder from '@axe-core/playwright';
import { adminHelpers } from './admin.mjs';

/** A short random tag, so a rerun against the same gateway never meets its own earlier data. */
const tag = () => Math.random().toString(36).slice(2, 8);

export default function registerReviewJourneys({ journey, check, checkEqual, eventually, BASE_URL }) {
  const { api, outbox, adminPage, adminSession, paidOrder } = adminHelpers({ check, eventually, BASE_URL });

  /** A review through the API, from a fresh address (the shop allows 5 an hour per address). */
  async function writeReview(fullname, rating = 5) {
    const [drink] = await api('GET', '/api/product/');
    return api('POST', '/api/reviews/create/', {
      rating,
      comment: `${fullname} thinks it is a proper fizzy drink.`,
      fullname,
      email: `reviewer.${tag()}@example.com`,
      products: drink._id,
    });
  }

  async function scan(page, where) {
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    check(bad.length === 0, `${where}: ${bad.map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`).join('; ')}`);
  }

  const basedOn = async (page) => {
    const text = await page.getByText(/^Based on \d+ reviews?$/).textContent();
    return Number(text.match(/\d+/)[0]);
  };

  journey('reviews: the form checks its fields, then a review written in the browser is listed, counted and in the JSON-LD', async ({ newPage }) => {
    const page = await newPage({ width: 1280, height: 900 });
    const [drink] = await api('GET', '/api/product/');
    await page.goto(`${BASE_URL}/drinks/review?product=${encodeURIComponent(drink._id)}`);
    await page.getByRole('heading', { level: 1, name: 'Customer Reviews' }).waitFor();
    await page.getByTestId('average-rating').waitFor();
    const before = await basedOn(page);
    checkEqual(await page.getByTestId('rating-bar').count(), 5, 'a bar per star');
    check((await page.getByTestId('upload-note').textContent()).includes('Photo uploads are temporarily disabled'), 'the note on image upload');

    await page.getByRole('button', { name: 'Write a review' }).click();
    const form = page.getByTestId('review-form');
    await form.waitFor();
    // The drink named in the address is chosen.
    await eventually(() => form.getByLabel('Drink').inputValue(), (v) => v === drink._id, 'the drink from ?product=');
    await form.getByRole('button', { name: 'Send review' }).click();
    await form.getByText('This field is required.').waitFor();
    await form.getByText('Write a comment of more than 7 characters.').waitFor();
    check(await page.getByRole('radio', { name: '1 star' }).evaluate((el) => el === document.activeElement), 'the first star takes the focus');
    await scan(page, 'reviews page with field errors');

    // Stars by keyboard: the focus is on the first star; arrows move the choice.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    check(await page.getByRole('radio', { name: '4 stars' }).isChecked(), 'four stars chosen with the arrow keys');
    const name = `Layla Haddad ${tag()}`;
    await form.getByLabel('Your review').fill('  Crisp, FIZZY and not too sweet.  ');
    await form.getByLabel('Full name').fill(name);
    await form.getByLabel('E-mail').fill(`Layla.${tag()}@Example.com`);
    await form.getByRole('button', { name: 'Send review' }).click();
    await page
      .getByText("We sincerely appreciate your review of our product. Your feedback means a lot to us, and we're very glad to know you're satisfied.", { exact: true })
      .waitFor();
    check(!(await form.isVisible()), 'the thanks replace the form');

    // Listed first (newest), counted, and never with the e-mail.
    const list = page.getByTestId('review-list');
    await eventually(() => list.getByTestId('review').first().textContent(), (t) => t.includes(name), 'the new review first in the list');
    const mine = list.getByTestId('review').first();
    await mine.getByRole('img', { name: '4 out of 5 stars' }).waitFor();
    // A made-up address that never ordered: no badge.
    check(!(await mine.textContent()).includes('Verified'), 'no verified badge for a reviewer who never bought the drink');
    check((await mine.textContent()).toLowerCase().includes('crisp, fizzy and not too sweet.'), 'the comment as stored (lower case)');
    await eventually(() => basedOn(page), (n) => n === before + 1, 'the count after the review');
    const summary = await api('GET', '/api/home/uk/review/');
    check(!JSON.stringify(summary.comment).includes('@example.com'), 'no reviewer e-mail in the public summary');
    const things = (await page.locator('script[type="application/ld+json"]').allTextContents()).flatMap((t) => JSON.parse(t)['@graph'] ?? []);
    check(things.some((t) => t['@type'] === 'Review' && t.author?.name === name), 'the review is in the JSON-LD');
    const store = things.find((t) => t['@type'] === 'Store');
    check(store?.openingHoursSpecification?.length === 2 && store.aggregateRating?.reviewCount === before + 1, 'the store has its hours and rating');
  });

  journey("reviews: a typed buyer's address proves nothing until its mailbox confirms; then the badge shows", async ({ newPage }) => {
    const [drink] = await api('GET', '/api/product/');
    const buyer = `buyer.${tag()}@example.com`;
    await paidOrder(buyer, drink._id);
    const bought = `Verified Buyer ${tag()}`;
    const mine = await api('POST', '/api/reviews/create/', { rating: 5, comment: 'Bought a case, gone in a week.', fullname: bought, email: buyer, products: drink._id });
    const stranger = `Never Bought ${tag()}`;
    const theirs = await api('POST', '/api/reviews/create/', { rating: 1, comment: 'Never tried it but here I am.', fullname: stranger, email: `stranger.${tag()}@example.com`, products: drink._id });
    // Typing a buyer's address gets the same answer as typing anyone's: no purchase oracle.
    checkEqual(mine.verified, false, "the typed buyer's answer");
    checkEqual(theirs.verified, false, "the stranger's answer");
    const page = await newPage({ width: 1280, height: 900 });
    await page.goto(`${BASE_URL}/drinks/review?product=${encodeURIComponent(drink._id)}`);
    const byName = (name) => page.getByTestId('review').filter({ hasText: name });
    // The badge is its own word (the buyer's name holds "Verified" too).
    const badged = async (name) => (await byName(name).getByText('Verified', { exact: true }).count()) > 0;
    await byName(stranger).waitFor();
    check(!(await badged(bought)), 'no badge before the mailbox confirms');
    for (const line of ['Every review shows as it was written', '“Verified” marks a review proven to come from a buyer']) {
      check((await page.getByTestId('how-checked').textContent()).includes(line), `the page says how reviews are checked: ${line}`);
    }

    // The buyer's mailbox has the confirmation link: it opens a page whose button confirms.
    const mail = await eventually(
      async () => (await outbox(buyer)).find((m) => m.subject.startsWith('Confirm your review')),
      Boolean,
      'the review confirmation e-mail',
      10_000,
    );
    const link = /https?:\/\/\S+\/confirm\/review\?token=\S+/.exec(mail.text)?.[0];
    check(Boolean(link), 'the confirmation has its link');
    const confirmPage = await newPage({ width: 1280, height: 900 });
    await confirmPage.goto(`${BASE_URL}${new URL(link).pathname}${new URL(link).search}`);
    await confirmPage.getByRole('heading', { level: 1, name: 'Confirm your review' }).waitFor();
    await confirmPage.getByRole('button', { name: 'Confirm my review' }).click();
    await confirmPage.getByRole('status').filter({ hasText: 'your review is confirmed' }).waitFor();
    await page.reload();
    await byName(bought).waitFor();
    check(await badged(bought), "the confirmed buyer's review has the badge");
    check(!(await badged(stranger)), "the non-buyer's review has none");
    // The admin sees which is which.
    const admin = await adminPage(newPage);
    await admin.goto(`${BASE_URL}/new/uk/reviews`);
    const row = (name) => admin.getByTestId('admin-review').filter({ hasText: name });
    await row(bought).waitFor();
    check((await row(bought).textContent()).includes('Verified buyer'), 'the admin list marks the buyer');
    check((await row(stranger).textContent()).includes('Not proven'), 'the admin list marks the non-buyer');
  });

  journey("reviews: the delivered e-mail's link fills the form for its drink, without an address, and the review shows verified", async ({ newPage }) => {
    const [drink] = await api('GET', '/api/product/');
    const buyer = `delivered.${tag()}@example.com`;
    const fullname = `Link Writer ${tag()}`;
    const order = await paidOrder(buyer, drink._id, { fullname });
    const { token } = await adminSession();
    await api('PUT', `/api/order/update/${order}`, { status: 'delivered' }, token);
    const mail = await eventually(
      async () => (await outbox(buyer)).find((m) => / has been delivered$/.test(m.subject)),
      Boolean,
      'the delivered e-mail',
      10_000,
    );
    const line = mail.text.split('\n').find((text) => text.startsWith(`Review ${drink.name}: `));
    const link = line?.slice(`Review ${drink.name}: `.length).trim();
    check(Boolean(link), `the delivered e-mail links a review of ${drink.name}: ${mail.text}`);
    const page = await newPage({ width: 1280, height: 900 });
    await page.goto(`${BASE_URL}${new URL(link).pathname}${new URL(link).search}`);
    const form = page.getByTestId('review-form');
    await form.waitFor();
    checkEqual(await form.getByLabel('Full name').inputValue(), fullname, 'the name from the order');
    check((await form.getByTestId('review-drink').textContent()).includes(drink.name), 'the drink is fixed');
    checkEqual(await form.getByLabel('E-mail').count(), 0, 'no address to type');
    await page.getByRole('radio', { name: '5 stars' }).check({ force: true });
    await form.getByLabel('Your review').fill('Exactly what the delivery promised.');
    await form.getByRole('button', { name: 'Send review' }).click();
    await page.getByTestId('review-thanks').waitFor();
    const mine = page.getByTestId('review').filter({ hasText: fullname });
    await mine.waitFor();
    check((await mine.textContent()).includes('Verified'), 'the review written from the link is verified');
  });

  journey('reviews: a shopper reports a review; the admin sees the reason, hides it from the shop and shows it again', async ({ newPage }) => {
    const name = `Spammy Writer ${tag()}`;
    await writeReview(name, 1);
    const before = (await api('GET', '/api/home/uk/review/')).Thecount;
    const shopper = await newPage({ width: 1280, height: 900 });
    await shopper.goto(`${BASE_URL}/drinks/review`);
    const review = shopper.getByTestId('review').filter({ hasText: name });
    await review.waitFor();
    await review.getByRole('button', { name: `Report the review by ${name}` }).click();
    const reason = `Advertises another shop ${tag()}`;
    await review.getByLabel('What is wrong with this review?').fill(reason);
    await review.getByRole('button', { name: 'Send report' }).click();
    await review.getByRole('status').filter({ hasText: 'the shop will look at this review' }).waitFor();
    await scan(shopper, 'reviews page after a report');

    const page = await adminPage(newPage);
    await page.goto(`${BASE_URL}/new/uk/reviews`);
    const reported = page.getByTestId('reported-review').filter({ hasText: name });
    await reported.waitFor();
    check((await reported.textContent()).includes(reason), 'the admin reads the reason');
    await reported.getByRole('button', { name: `Hide: the review by ${name}` }).click();
    await reported.waitFor({ state: 'detached' });
    const hidden = page.getByTestId('hidden-review').filter({ hasText: name });
    await hidden.waitFor();
    await eventually(async () => (await api('GET', '/api/home/uk/review/')).Thecount, (n) => n === before - 1, 'the count without the hidden review');
    await shopper.reload();
    await shopper.getByTestId('review').first().waitFor();
    checkEqual(await shopper.getByTestId('review').filter({ hasText: name }).count(), 0, 'the shop no longer shows it');

    await hidden.getByRole('button', { name: `Show again: the review by ${name}` }).click();
    await hidden.waitFor({ state: 'detached' });
    await eventually(async () => (await api('GET', '/api/home/uk/review/')).Thecount, (n) => n === before, 'the count with it shown again');
  });

  journey("reviews: 'View more comments' shows the next page and goes on the last", async ({ newPage }) => {
    // More than one page (10 a page) of reviews.
    let { Thecount: count } = await api('GET', '/api/home/uk/review/');
    while (count <= 10) {
      await writeReview(`Paging Reviewer ${tag()}`, 3);
      count += 1;
    }
    ({ Thecount: count } = await api('GET', '/api/home/uk/review/'));
    const page = await newPage({ width: 1280, height: 900 });
    await page.goto(`${BASE_URL}/drinks/review`);
    const reviews = page.getByTestId('review');
    await eventually(() => reviews.count(), (n) => n === 10, 'the first page of reviews');
    const more = page.getByRole('button', { name: 'View more comments' });
    while (await more.isVisible()) {
      const shown = await reviews.count();
      await more.click();
      await eventually(() => reviews.count(), (n) => n > shown, 'more reviews after View more comments');
    }
    checkEqual(await reviews.count(), count, 'every review once the last page is in');
  });

  journey('reviews: the admin deletes a review after a confirm; the shop drops it and counts one less', async ({ newPage }) => {
    const name = `Delete Me ${tag()}`;
    const created = await writeReview(name, 1);
    const before = (await api('GET', '/api/home/uk/review/')).Thecount;
    const page = await adminPage(newPage);
    await page.goto(`${BASE_URL}/new/uk/reviews`);
    await page.getByRole('heading', { level: 2, name: 'Reviews' }).waitFor();
    const row = page.getByTestId('admin-review').filter({ hasText: name });
    await row.waitFor();
    check((await row.textContent()).includes('@example.com'), 'the admin sees the e-mail');
    await scan(page, 'admin reviews');

    // Dismissing the confirm keeps it; accepting deletes it.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await row.getByRole('button', { name: `Delete the review by ${name}` }).click();
    await page.waitForTimeout(300);
    checkEqual(await row.count(), 1, 'still listed after dismissing the confirm');
    page.once('dialog', (dialog) => {
      check(dialog.message().includes(name), `the confirm names the reviewer: ${dialog.message()}`);
      void dialog.accept();
    });
    await row.getByRole('button', { name: `Delete the review by ${name}` }).click();
    await row.waitFor({ state: 'detached' });

    const after = await api('GET', '/api/home/uk/review/');
    checkEqual(after.Thecount, before - 1, 'the count after the delete');
    await page.goto(`${BASE_URL}/drinks/review`);
    await page.getByTestId('review-list').waitFor();
    checkEqual(await page.getByTestId('review').filter({ hasText: name }).count(), 0, 'the review is gone from the public page');
    const { token } = await adminSession();
    const gone = await fetch(`${BASE_URL}/api/reviews/delete/${created._id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
    checkEqual(gone.status, 404, 'deleting it again');

    // It waits in the admin's bin, and Restore brings it back with its stars counted.
    await page.goto(`${BASE_URL}/new/uk/bin`);
    const binned = page.getByTestId('bin-reviews').getByTestId('bin-entry').filter({ hasText: name });
    await binned.waitFor();
    await scan(page, 'admin bin');
    await binned.getByRole('button', { name: /^Restore / }).click();
    await page.getByRole('status').filter({ hasText: 'The review is back' }).waitFor();
    await binned.waitFor({ state: 'detached' });
    checkEqual((await api('GET', '/api/home/uk/review/')).Thecount, before, 'the count after the restore');
  });
}
