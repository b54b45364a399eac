// Browser journeys for subscriptions: a shopper signs up from the footer; the admin sees them on the
// Subscriptions screen and sends a mailing from the Mailer screen, and watches its progress reach 'sent';
// the e-mail reaches the outbox with the reader's own unsubscribe link (in the body and the RFC 8058
// headers), and following it unsubscribes them. run.mjs registers it.

import { adminHelpers } from './admin.mjs';

/** A short random tag, so a rerun against the same gateway never meets its own earlier data. */
const tag = () => Math.random().toString(36).slice(2, 8);

export default function registerSubscriptionJourneys({ journey, check, checkEqual, eventually, BASE_URL }) {
  const { api, outbox, adminPage, adminSession } = adminHelpers({ check, eventually, BASE_URL });

  async function allSubscribers() {
    const { token } = await adminSession();
    const all = [];
    for (let page = 1; ; ) {
      const answer = await api('GET', `/api/subscription/?pageNumber=${page}`, undefined, token);
      all.push(...answer.product);
      if (!answer.result?.next?.page) return all;
      page = answer.result.next.page;
    }
  }

  journey('subscription: sign up in the footer, the admin sees them and mails the list, the link unsubscribes', async ({ newPage }) => {
    const email = `reader.${tag()}@example.com`;
    const subject = `Summer drinks ${tag()}`;

    // The shopper, from the footer of the home page.
    const shopper = await newPage({ width: 1280, height: 900 });
    await shopper.goto(`${BASE_URL}/`);
    await shopper.keyboard.press('End');
    const form = shopper.getByRole('form', { name: 'Newsletter sign-up' });
    await form.waitFor();
    check(await shopper.getByText('You can unsubscribe at any time').isVisible(), 'the form says they can unsubscribe');
    await form.getByRole('button', { name: 'Sign up' }).click();
    await form.getByText('Tick at least one list').waitFor();
    await form.getByLabel('Your email').fill(email.toUpperCase());
    await form.getByLabel('What should we call you? (optional)').fill('Journey Reader');
    await form.getByRole('checkbox', { name: 'Our monthly newsletter' }).check();
    await form.getByRole('button', { name: 'Sign up' }).click();
    await shopper.getByRole('status').filter({ hasText: 'Thank you for subscribing' }).waitFor();

    // Double opt-in: the confirmation e-mail's link opens a page, whose button puts them on the list. Opening
    // the link alone (as a mail scanner would) confirms nothing.
    const confirmation = await eventually(
      async () => (await outbox()).find((m) => m.to.includes(email) && m.subject.startsWith('Confirm your subscription')),
      Boolean,
      'the confirmation e-mail',
      10_000,
    );
    const confirmLink = /https?:\/\/\S+\/confirm\/subscription\?token=[0-9a-f.]+/.exec(confirmation.text)?.[0];
    check(Boolean(confirmLink), 'the confirmation has its link');
    await shopper.goto(`${BASE_URL}${new URL(confirmLink).pathname}${new URL(confirmLink).search}`);
    await shopper.getByRole('heading', { level: 1, name: 'Confirm your subscription' }).waitFor();
    check(!JSON.stringify(await allSubscribers()).includes(email), 'opening the link subscribed nobody');
    await shopper.getByRole('button', { name: 'Yes, subscribe me' }).click();
    await shopper.getByRole('status').filter({ hasText: 'You are subscribed' }).waitFor();

    // The admin sees them, with their list.
    const page = await adminPage(newPage);
    await page.goto(`${BASE_URL}/new/uk/subscription`);
    await page.getByRole('heading', { level: 2, name: 'Subscriptions' }).waitFor();
    const row = page.getByTestId('subscriber').filter({ hasText: email });
    await row.waitFor();
    check((await row.textContent()).includes('Newsletter'), 'the row names the list');

    // The admin mails the Newsletter.
    await page.goto(`${BASE_URL}/new/uk/mailer`);
    await page.getByRole('heading', { level: 2, name: 'Mailer' }).waitFor();
    await page.getByRole('button', { name: 'Show letter' }).click();
    await page.getByRole('alert').filter({ hasText: 'Add Mail List' }).waitFor();
    await page.getByRole('checkbox', { name: /^Newsletter \(/ }).check();
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Title').fill('Mango <fizz>');
    await page.getByLabel('Description').fill('Our new sparkling mango drink is here.');
    await page.getByLabel('Link').fill(`${BASE_URL}/shop/drinks/`);
    await page.getByRole('button', { name: 'Show letter' }).click();
    await page.getByTestId('letter-preview').getByText('Mango <fizz>').waitFor();
    // The spec's question, then what sending will do: the subject and the count the server gives.
    const readers = (await api('GET', '/api/subscription/recipients/?lists=Newsletter', undefined, (await adminSession()).token)).recipients;
    check(readers >= 1, 'the Newsletter has readers');
    page.once('dialog', (dialog) => {
      checkEqual(dialog.message(), `Are you sure?\nSend '${subject}' to ${readers} Newsletter ${readers === 1 ? 'subscriber' : 'subscribers'}?`, 'the confirm');
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Send Mail' }).click();
    // Queued is not sent: the screen says where the mailing stands, and has the focus.
    const status = page.getByTestId('mailing-status');
    await status.waitFor({ timeout: 15000 });
    check(/(Queued|Sending|Sent), \d+ of \d+ sent/.test(await status.textContent()), 'the screen says where the mailing stands');
    check(!/have been sent/.test(await status.textContent()), 'never "Emails have been sent"');
    await eventually(() => status.evaluate((el) => el === document.activeElement), Boolean, 'the status has the focus');
    // The mailing is a job: its progress moves on until the sender has sent it all.
    await page.locator('[data-testid="mailing-progress"][data-status="sent"]').waitFor({ timeout: 60000 });
    check(/Sent, \d+ of \d+ sent/.test(await page.getByTestId('mailing-progress').textContent()), 'the progress says it is sent');
    await page.getByTestId('past-mailing').filter({ hasText: subject }).waitFor();
    await page.getByRole('button', { name: 'Send another mail' }).waitFor();

    // The mailing reaches the outbox, escaped, with the reader's own unsubscribe link.
    const mail = await eventually(
      async () => (await outbox()).find((m) => String(m.to).includes(email) && m.subject === subject),
      Boolean,
      'the mailing in the outbox',
    );
    check(mail.html.includes('Mango &lt;fizz&gt;') && !mail.html.includes('Mango <fizz>'), 'the title is escaped in the HTML');
    checkEqual(mail.headers['List-Unsubscribe-Post'], 'List-Unsubscribe=One-Click', 'the one-click header');
    check(/^<http[^>]*\/api\/subscription\/unsubscribe\/\?token=[0-9a-f.]+>, <mailto:/.test(mail.headers['List-Unsubscribe']), 'the List-Unsubscribe header');
    const link = mail.html.match(/href="([^"]*\/api\/subscription\/unsubscribe\/\?token=[0-9a-f.]+)"/)?.[1];
    check(link, 'the mail carries an unsubscribe link');

    // Following it unsubscribes them; a forged token does not.
    const forged = await fetch(link.slice(0, -4) + (link.endsWith('0000') ? '1111' : '0000'), { headers: { Accept: 'application/json' } });
    checkEqual(forged.status, 400, 'a forged token');
    await shopper.goto(link);
    await shopper.getByText('You are unsubscribed').waitFor();
    checkEqual((await allSubscribers()).filter((s) => s.email === email).length, 0, 'subscribers with the address after unsubscribing');
  });
}
