// Browser journeys for the site content: the contact form reaches the local outbox, the admin's
// site-info change shows in the footer, a policy opens from the footer, home's JSON-LD parses and carries
// the opening hours, and the about page shows the admin's texts. run.mjs registers them; each journey makes
// the data it needs through the API, so none depends on another.

import AxeBuilder from '@axe-core/playwright';
import { adminHelpers } from './admin.mjs';

/** A short random tag, so a rerun against the same gateway never meets its own earlier data. */
const tag = () => Math.random().toString(36).slice(2, 8);

export default function registerContentJourneys({ journey, check, checkEqual, eventually, BASE_URL }) {
  const { api, outbox, adminSession, adminPage } = adminHelpers({ check, eventually, BASE_URL });

  /** Scrolls to the bottom until the footer (loaded as it comes near) is there. */
  async function openFooter(page) {
    const footer = page.locator('footer');
    await eventually(
      async () => {
        await page.mouse.wheel(0, 4000);
        return footer.count();
      },
      (n) => n > 0,
      'the footer',
    );
    await footer.scrollIntoViewIfNeeded();
    return footer;
  }

  journey('the contact form checks its fields, then its message reaches the outbox', async ({ newPage }) => {
    const page = await newPage({ width: 1280, height: 900 });
    await page.goto(`${BASE_URL}/contact/drinks-contact/`);
    await page.getByRole('heading', { level: 1, name: 'Contact us' }).waitFor();
    // The shop's details and opening hours from the site info.
    const details = page.getByRole('complementary');
    await details.getByText('hello@example.com').waitFor();
    await details.getByText(/Mon-Fri 09:00-18:00/).waitFor();

    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Enter your full name (more than 5 characters).').waitFor();
    await page.getByText('Write a message of 10 to 1000 characters.').waitFor();

    const name = `Layla Haddad ${tag()}`;
    await page.getByLabel('Full name').fill(name);
    await page.getByLabel('E-mail').fill(`layla.${tag()}@example.com`);
    await page.getByLabel('Phone').fill('07700 900123');
    await page.getByLabel('Message', { exact: true }).fill('Do you deliver mixed cases to Edinburgh?');
    await page.getByRole('button', { name: 'Send message' }).click();
    const sent = page.getByTestId('contact-sent');
    await sent.waitFor();
    const text = await sent.textContent();
    check(/24 hours/.test(text) && /Monday to Friday/.test(text), `the reply promise is shown, got ${text}`);

    const subject = `Message from ${name} via the contact form`;
    const mail = await eventually(
      async () => (await outbox()).find((m) => m.subject === subject),
      Boolean,
      `a mail '${subject}' in the outbox`,
    );
    check(mail.text.includes('mixed cases to Edinburgh') || mail.html.includes('mixed cases to Edinburgh'), 'the mail carries the message');
  });

  journey('the admin changes the phone number in the contact details; the footer and the contact page show it', async ({ newPage }) => {
    const page = await adminPage(newPage);
    await page.goto(`${BASE_URL}/new/uk/siteinfo`);
    const phone = page.getByLabel('Phone');
    await phone.waitFor();
    await eventually(() => phone.inputValue(), (v) => v.length > 0, 'the phone field filled from GET /api/contact/');
    const newPhone = `0113 496 ${String(Math.floor(1000 + Math.random() * 9000))}`;
    await phone.fill(newPhone);
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/contact/create/') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save contact details' }).click();
    checkEqual((await saved).status(), 200, 'POST /api/contact/create/ answers');
    await page.getByText('The contact details are saved.').waitFor();

    // The server holds it (the contact call and the site info agree), and a fresh visit shows it.
    checkEqual((await api('GET', '/api/contact/')).phone, newPhone, 'the stored phone');
    checkEqual((await api('GET', '/api/connect/uk/palestine/connect/')).phone, newPhone, 'the site info phone');
    await page.goto(`${BASE_URL}/contact/drinks-contact/`);
    await page.getByRole('complementary').getByRole('link', { name: newPhone }).waitFor();
    await page.goto(`${BASE_URL}/`);
    await page.getByTestId('featured-drinks').waitFor();
    const footer = await openFooter(page);
    await eventually(() => footer.getByTestId('footer-phone').textContent().catch(() => ''), (t) => t === newPhone, 'the footer phone');
  });

  journey('a policy page opens from the footer', async ({ newPage }) => {
    const { token } = await adminSession();
    const name = `Returns policy ${tag()}`;
    const policy = await api(
      'POST',
      '/api/policy/create/',
      { name, des: 'Unopened cases can be returned within 30 days.\nWe refund the full price.' },
      token,
    );
    const page = await newPage({ width: 1280, height: 900 });
    await page.goto(`${BASE_URL}/`);
    await page.getByTestId('featured-drinks').waitFor();
    const footer = await openFooter(page);
    await footer.getByRole('link', { name }).click();
    await page.waitForURL(`${BASE_URL}/drinks/policies/${policy._id}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.getByText('Unopened cases can be returned within 30 days.').waitFor();
    checkEqual(await page.title(), `${name} | Palestine Drinks`, 'the page title');
  });

  journey('JSON-LD on home parses as JSON and has the opening hours, the FAQ and the support e-mail', async ({ newPage }) => {
    const page = await newPage({ width: 1280, height: 900 });
    await page.goto(`${BASE_URL}/`);
    const scripts = page.locator('script[type="application/ld+json"]');
    await scripts.first().waitFor({ state: 'attached' });
    // The e-mail is in once the site info is held.
    const texts = await eventually(
      () => scripts.allTextContents(),
      (all) => all.some((t) => t.includes('hello@example.com')),
      'JSON-LD with the site info',
    );
    const things = texts.flatMap((t) => {
      const data = JSON.parse(t);
      return data['@graph'] ?? [data];
    });
    const types = things.map((t) => t['@type']);
    for (const type of ['Organization', 'Store', 'BreadcrumbList', 'FAQPage']) check(types.includes(type), `JSON-LD has ${type}: ${types}`);
    const hours = things.find((t) => t['@type'] === 'Store').openingHoursSpecification;
    const weekday = hours.find((h) => h.dayOfWeek.includes('Monday'));
    const saturday = hours.find((h) => h.dayOfWeek.includes('Saturday'));
    checkEqual(`${weekday.dayOfWeek.length} ${weekday.opens}-${weekday.closes}`, '5 09:00-18:00', 'Mon-Fri hours');
    checkEqual(`${saturday.opens}-${saturday.closes}`, '10:00-18:00', 'Saturday hours');
    const faq = things.find((t) => t['@type'] === 'FAQPage').mainEntity;
    check(faq.length >= 5 && faq.some((q) => q.acceptedAnswer.text.includes('hello@example.com')), 'the FAQ names the support e-mail');
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    check(description.length > 0 && description.length <= 165, `a meta description of at most 165 characters: ${description}`);
    check((await page.locator('meta[property="og:title"]').getAttribute('content')).includes('Palestine Drinks'), 'an Open Graph title');
  });

  journey('the about page shows the about and who-we-are texts; home links the entries', async ({ newPage }) => {
    const { token } = await adminSession();
    const story = `Our story ${tag()}`;
    const who = `The team ${tag()}`;
    const link = `Stockists ${tag()}`;
    const whoText = `Three friends from Leeds who love a fizzy drink (${tag()}).`;
    await api('POST', '/api/about/create/', { name: story, des: 'It began with a family recipe for lemonade.' }, token);
    await api('POST', '/api/whoweare/create/', { name: who, des: whoText }, token);
    await api('POST', '/api/link/create/', { name: link, des: 'Find us in shops', link: '/shop/drinks/' }, token);

    const page = await newPage({ width: 1280, height: 900 });
    await page.goto(`${BASE_URL}/about/drinks-about-us`);
    await page.getByRole('heading', { level: 1, name: 'About us' }).waitFor();
    await page.getByRole('heading', { name: story }).waitFor();
    await page.getByRole('heading', { name: who }).waitFor();
    await page.getByText(whoText).waitFor();

    await page.goto(`${BASE_URL}/`);
    await page.getByTestId('featured-drinks').waitFor();
    await page.getByRole('heading', { name: 'Frequently asked questions' }).scrollIntoViewIfNeeded().catch(() => undefined);
    await eventually(
      async () => {
        await page.mouse.wheel(0, 1500);
        return page.getByTestId('home-links').getByText(link).count();
      },
      (n) => n > 0,
      'the link entry on home',
    );
    await page.getByTestId('home-links').getByRole('link', { name: new RegExp(link) }).click();
    await page.waitForURL(/\/shop\/drinks\/$/);
  });

  journey('no serious accessibility problems (axe) on about, contact (with field errors), a policy, the footer and the site-info screen', async ({ newPage }) => {
    const { token } = await adminSession();
    const policy = await api('POST', '/api/policy/create/', { name: `Privacy ${tag()}`, des: 'We keep your details safe.' }, token);
    const page = await adminPage(newPage);
    const scan = async (where) => {
      const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      check(bad.length === 0, `${where}: ${bad.map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`).join('; ')}`);
    };
    await page.goto(`${BASE_URL}/about/drinks-about-us`);
    await page.getByRole('heading', { level: 1, name: 'About us' }).waitFor();
    await scan('about');
    await page.goto(`${BASE_URL}/contact/drinks-contact/`);
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Enter a valid e-mail address.').waitFor();
    await scan('contact with field errors');
    await page.goto(`${BASE_URL}/drinks/policies/${policy._id}`);
    await page.getByTestId('policy').waitFor();
    await openFooter(page);
    await page.locator('footer').getByRole('link').first().waitFor();
    await scan('policy and footer');
    await page.goto(`${BASE_URL}/new/uk/siteinfo`);
    await page.getByLabel('Phone').waitFor();
    await scan('admin site info');
    await page.goto(`${BASE_URL}/new/uk/policies`);
    await page.getByTestId('policy-list').waitFor();
    await scan('admin policies');
  });

  journey('the admin creates, updates and deletes a policy on the policies screen; the shop follows', async ({ newPage }) => {
    const page = await adminPage(newPage);
    const name = `Delivery policy ${tag()}`;
    await page.goto(`${BASE_URL}/new/uk/policies`);
    await page.getByRole('heading', { name: 'Create policy' }).waitFor();
    // Pictures are picked, never typed (the server's 422 at a field is in the Vitest suite).
    await page.getByLabel('Title').fill(name);
    checkEqual(await page.getByRole('textbox', { name: /Images/ }).count(), 0, 'no image name is typed');
    await page.getByLabel('Text').fill('We deliver across the UK in 2 to 4 working days.');
    await page.getByRole('button', { name: 'Create' }).click();
    const list = page.getByTestId('policy-list');
    await list.getByText(name).waitFor();

    // Update mode: the form holds the policy; the list refetches with the new text.
    await page.getByRole('button', { name: `Update ${name}` }).click();
    await page.getByRole('heading', { name: `Update policy: ${name}` }).waitFor();
    await page.getByLabel('Text').fill('We deliver across the UK in 1 to 3 working days.');
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await list.getByText('We deliver across the UK in 1 to 3 working days.').waitFor();
    const stored = (await api('GET', '/api/policy/')).find((p) => p.name === name);
    checkEqual(stored?.des, 'We deliver across the UK in 1 to 3 working days.', 'the stored policy text');

    const shop = await newPage({ width: 1280, height: 900 });
    await shop.goto(`${BASE_URL}/drinks/policies/${stored._id}`);
    await shop.getByText('We deliver across the UK in 1 to 3 working days.').waitFor();

    // Delete asks first; after it the list no longer holds the policy.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByText(`Deleted “${name}”.`).waitFor();
    await eventually(() => list.getByText(name).count(), (n) => n === 0, 'the deleted policy gone from the list');
    check(!(await api('GET', '/api/policy/')).some((p) => p.name === name), 'the policy is deleted on the server');
  });
}
