// Browser journeys for logging in and the account: log in by e-mailed code (read from the local gateway's outbox), the admin
// area only admins enter, the account area, and the profile. e2e/run.mjs calls `register` with its runner
// and helpers. Each journey makes what it needs: the admin logs in fresh, and every customer is a new
// address, so no journey depends on another or on the order they run in.
import AxeBuilder from '@axe-core/playwright';
import { adminHelpers, loginCode } from './admin.mjs';

const ADMIN_EMAIL = 'admin@example.com';

/** A fresh customer address the spec's e-mail rule accepts (letters, digits and @ . _ - only). */
function freshEmail(prefix = 'shopper') {
  return `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export default function register({ journey, check, checkEqual, eventually, shot, BASE_URL, DESKTOP, MOBILE }) {
  /** The mails the gateway sent to `email`, oldest first. */
  async function mailsTo(email) {
    // One recipient's mail, a page of up to 500 (the outbox answers 50 newest mails unless asked).
    const response = await fetch(`${BASE_URL}/_local/outbox?to=${encodeURIComponent(email)}&limit=500`);
    check(response.ok, `GET /_local/outbox answered ${response.status}`);
    const mails = (await response.json()).reverse(); // the outbox lists newest first
    return mails.filter((mail) => (mail.to ?? []).map((to) => to.toLowerCase()).includes(email.toLowerCase()));
  }

  /** Waits for the mail after the `before` already there, and reads the code off its body (never the subject). */
  async function newCode(email, before) {
    const mails = await eventually(() => mailsTo(email), (list) => list.length > before, `a new login mail to ${email}`);
    const mail = mails.at(-1);
    check(!/\d{6}/.test(mail.subject), `no code in the subject ${JSON.stringify(mail.subject)}`);
    const code = loginCode(mail);
    check(code, `a 6-digit code in the body ${JSON.stringify(mail.text)}`);
    return code;
  }

  /** Makes `email` a customer without a browser: asks for a code and sends it back, as the login page does. */
  async function createCustomer(email) {
    const post = (path, body) =>
      fetch(`${BASE_URL}/api/user/${path}/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const before = (await mailsTo(email)).length;
    checkEqual((await post('login', { email })).status, 200, 'POST /api/user/login/');
    const code = await newCode(email, before);
    checkEqual((await post('verify', { email, code })).status, 200, 'POST /api/user/verify/');
  }

  const emailField = (page) => page.getByRole('textbox', { name: 'E-mail address' });
  const codeField = (page) => page.getByRole('textbox', { name: 'Code from the e-mail' });

  /** On the login page: asks for a code for `email` and answers the code the outbox got. */
  async function requestCode(page, email) {
    const before = (await mailsTo(email)).length;
    await emailField(page).fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await codeField(page).waitFor();
    return newCode(email, before);
  }

  /** Opens the login page, logs in as `email` through the UI, and waits to leave the login page. */
  async function logIn(page, email, start = `${BASE_URL}/drinks/login`) {
    await page.goto(start);
    await emailField(page).waitFor();
    const code = await requestCode(page, email);
    await codeField(page).fill(code);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  }

  async function savedAuth(page) {
    return page.evaluate(() => {
      const root = JSON.parse(window.localStorage.getItem('persist:root') ?? '{}');
      return root.Auth ? JSON.parse(root.Auth) : null;
    });
  }

  async function scan(page, where) {
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    check(bad.length === 0, `${where}: ${bad.map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`).join('; ')}`);
  }

  journey('admin: /new/uk/ → login → code from the outbox → back in /new/uk/ → every admin screen → users, a role change and a delete → log out', async ({ newPage }) => {
    const page = await newPage(DESKTOP);
    await page.goto(`${BASE_URL}/new/uk/`);
    await page.waitForURL(/\/drinks\/login$/);
    await page.getByText('Log in with an admin account to open the admin area.').waitFor();
    await scan(page, 'login, e-mail step');
    const code = await requestCode(page, ADMIN_EMAIL);
    await page.getByRole('button', { name: /Send a new code in \d+ s/ }).waitFor();
    await scan(page, 'login, code step');
    await codeField(page).fill(code);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(/\/new\/uk\/?$/);

    const nav = page.getByRole('navigation', { name: 'Admin' });
    await nav.waitFor();
    const screens = ['', 'result', 'about', 'mailer', 'products', 'whoweare', 'subscription', 'reviews', 'order', 'show', 'discount', 'profile', 'users'];
    const hrefs = await nav.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    for (const child of screens) {
      const href = child ? `/new/uk/${child}` : '/new/uk';
      check(hrefs.includes(href), `the admin menu links ${href} (it has ${hrefs.join(', ')})`);
    }
    checkEqual((await savedAuth(page))?.userInfo?.role, 'admin', 'the saved role');

    await nav.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(/\/new\/uk\/users$/);
    const list = page.getByTestId('users-list');
    await list.waitFor();
    const row = list.getByTestId('user-row').filter({ hasText: ADMIN_EMAIL });
    await row.waitFor();
    check((await row.textContent()).includes('admin'), 'the admin row shows the admin role');
    check((await row.textContent()).includes('(you)'), 'the admin row is marked as you');
    await scan(page, 'admin users');
    await shot(page, 'admin-users-1280');

    // A customer made after the list loaded: a fresh visit lists them; make them an admin, then delete them.
    const someone = freshEmail('staff');
    await createCustomer(someone);
    await nav.getByRole('link', { name: 'Profile' }).click();
    await nav.getByRole('link', { name: 'Users' }).click();
    const theirs = list.getByTestId('user-row').filter({ hasText: someone });
    await theirs.waitFor();
    await theirs.getByRole('button', { name: 'Make admin' }).click();
    await theirs.getByRole('button', { name: 'Make customer' }).waitFor();
    check((await theirs.textContent()).includes('admin'), 'the new role shows');
    page.once('dialog', (dialog) => void dialog.accept());
    await theirs.getByRole('button', { name: 'Delete' }).click();
    await theirs.waitFor({ state: 'detached' });
    await row.waitFor();

    await nav.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('form', { name: 'Your profile' }).waitFor();
    checkEqual(await page.getByRole('textbox', { name: 'Full name' }).inputValue(), 'Shop Admin', 'the admin profile name');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/drinks\/login$/);
    await emailField(page).waitFor();
    await eventually(() => savedAuth(page), (auth) => auth && auth.token === null && auth.userInfo === null, 'auth cleared in storage');
    await page.getByTestId('navbar').getByRole('link', { name: 'Log in' }).waitFor();
    await page.goto(`${BASE_URL}/new/uk/`);
    await page.waitForURL(/\/drinks\/login$/);
    check(!(await page.getByRole('navigation', { name: 'Admin' }).count()), 'no admin menu after logging out');
  });

  journey('customer: logs in from the account icon, lands on an empty order history, cannot open /new/uk/', async ({ newPage }) => {
    const page = await newPage(MOBILE);
    const email = freshEmail();
    await page.goto(`${BASE_URL}/`);
    await page.getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(/\/drinks\/login$/);
    const code = await requestCode(page, email);
    await codeField(page).fill(code);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(/\/account\/order$/);
    await page.getByText('No orders yet').waitFor();
    checkEqual(await page.getByRole('main').getByRole('link', { name: 'Shop drinks' }).getAttribute('href'), '/shop/drinks/', 'the empty history links to the shop');
    await page.getByText(`Logged in as ${email}`).waitFor();
    checkEqual(await page.getByTestId('navbar').getByRole('link', { name: 'Your account' }).getAttribute('href'), '/account/order', 'the account icon when logged in');
    checkEqual((await savedAuth(page))?.userInfo?.role, 'customer', 'a new address logs in as a customer');
    await scan(page, 'account orders');
    await shot(page, 'account-orders-375');

    await page.goto(`${BASE_URL}/new/uk/`);
    await page.waitForURL(/\/drinks\/login$/);
    await page.getByRole('alert').filter({ hasText: 'Only admins can open the admin area' }).waitFor();
    check(!(await page.getByRole('navigation', { name: 'Admin' }).count()), 'no admin menu for a customer');
    await page.goto(`${BASE_URL}/new/uk/users`);
    await page.waitForURL(/\/drinks\/login$/);
    check(!(await page.getByTestId('users-list').count()), 'no users list for a customer');
  });

  journey("login rules: a short e-mail and a short code stay in the browser; a wrong code shows the server's tries left", async ({ newPage }) => {
    const page = await newPage(DESKTOP);
    const email = freshEmail('wrong');
    await page.goto(`${BASE_URL}/drinks/login`);
    const before = (await mailsTo(email)).length;
    await emailField(page).fill('a@b.co');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByText('Enter your e-mail address, like name@example.com.').waitFor();
    checkEqual(await emailField(page).getAttribute('aria-invalid'), 'true', 'the e-mail field is marked invalid');

    const code = await requestCode(page, email);
    checkEqual((await mailsTo(email)).length, before + 1, 'one mail: the short address sent nothing');
    await codeField(page).fill('123');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByText('Enter the 6-digit code from the e-mail.').waitFor();

    const wrong = code === '000000' ? '111111' : '000000';
    await codeField(page).fill(wrong);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'That code is wrong: 4 tries left' });
    await alert.waitFor();
    check(page.url().endsWith('/drinks/login'), 'still on the login page');
    const resend = page.getByRole('button', { name: /Send a new code in \d+ s/ });
    check(await resend.isDisabled(), 'resend waits out its cooldown');
    await shot(page, 'login-wrong-code-1280');

    // The right code still works after a wrong one.
    await codeField(page).fill(code);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(/\/account\/order$/);
  });

  journey('profile: a 422 shows beside its field; the saved name, phone and address parts survive a reload', async ({ newPage }) => {
    const page = await newPage(DESKTOP);
    await logIn(page, freshEmail('profile'));
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL(/\/account\/profile$/);
    const form = page.getByRole('form', { name: 'Your profile' });
    await form.waitFor();
    const name = form.getByRole('textbox', { name: 'Full name' });
    const phone = form.getByRole('textbox', { name: 'Phone' });
    const line1 = form.getByRole('textbox', { name: 'Address line 1' });
    const town = form.getByRole('textbox', { name: 'Town or city' });
    const postcode = form.getByRole('textbox', { name: 'Postcode' });

    await name.fill('Layla Haddad');
    await phone.fill('0113');
    await line1.fill('12 Park Row');
    await town.fill('Leeds');
    await postcode.fill('ls15hd');
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByText('phone must be at least 10 digits').waitFor();
    checkEqual(await phone.getAttribute('aria-invalid'), 'true', 'the phone field is marked invalid');

    await phone.fill('0113 496 0000');
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.getByText('Your profile is saved.').waitFor();
    await scan(page, 'account profile');

    await page.reload();
    await form.waitFor();
    await eventually(() => name.inputValue(), (v) => v === 'Layla Haddad', 'the name after a reload');
    checkEqual(await phone.inputValue(), '0113 496 0000', 'the phone after a reload');
    checkEqual(await line1.inputValue(), '12 Park Row', 'the first address line after a reload');
    checkEqual(await town.inputValue(), 'Leeds', 'the town after a reload');
    checkEqual(await postcode.inputValue(), 'LS1 5HD', 'the postcode, upper-cased, after a reload');
    checkEqual((await savedAuth(page))?.userInfo?.fullname, 'Layla Haddad', 'the stored user follows the save');
  });

  journey('passkeys: the admin adds one on the profile page (a virtual authenticator), then signs in with it and no code', async ({ newPage }) => {
    const { adminPage } = adminHelpers({ check, eventually, BASE_URL });
    // Browsers refuse an IP address as a passkey's site: the same gateway, reached as localhost.
    const site = BASE_URL.replace('127.0.0.1', 'localhost');
    const page = await adminPage(newPage, { once: true });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await page.goto(`${site}/new/uk/profile`);
    const section = page.getByTestId('passkeys');
    await section.getByText('You have no passkeys yet.').or(section.getByTestId('passkey').first()).waitFor();
    const before = await section.getByTestId('passkey').count();
    const name = `Journey key ${Date.now().toString(36)}`;
    await section.getByLabel('Name for this passkey').fill(name);
    await section.getByRole('button', { name: 'Add a passkey on this device' }).click();
    await section.getByRole('status').filter({ hasText: `Passkey “${name}” added` }).waitFor();
    await eventually(() => section.getByTestId('passkey').count(), (n) => n === before + 1, 'the new passkey listed');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    checkEqual(credentials.length, 1, 'the authenticator holds the new passkey');
    checkEqual(credentials[0].rpId, 'localhost', "the passkey's site");
    await scan(page, 'admin profile with passkeys');

    // This browser forgets its session (Log out would end every admin token, the run's shared one too), and
    // signs back in with the passkey: no code is mailed.
    await page.evaluate(() => window.localStorage.clear());
    await page.goto(`${site}/drinks/login`);
    const mailsBefore = (await mailsTo(ADMIN_EMAIL)).length;
    await emailField(page).fill(ADMIN_EMAIL);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    checkEqual((await savedAuth(page))?.userInfo?.role, 'admin', 'signed in as the admin by passkey');
    checkEqual((await mailsTo(ADMIN_EMAIL)).length, mailsBefore, 'no code was mailed');

    // Removed, it no longer signs in.
    await page.goto(`${site}/new/uk/profile`);
    const mine = section.getByTestId('passkey').filter({ hasText: name });
    await mine.getByRole('button', { name: `Remove the passkey ${name}` }).click();
    await mine.waitFor({ state: 'detached' });
  });
}
