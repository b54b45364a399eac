// What journeys that act as the admin share: a JSON API caller and ONE admin session per run (the back end
// allows 5 login codes an hour per address, and several journey files need the admin), plus a page whose
// app starts signed in as the admin.

/** The run's admin session (a promise), shared by every journey file. */
let session;

/** The code of a login mail: in its body only (a lock screen shows the subject); undefined for other mail. */
export const loginCode = (mail) => /log in to .*?:\s*(\d{6})/.exec(mail?.text ?? '')?.[1];

export function adminHelpers({ check, eventually, BASE_URL }) {
  const api = async (method, path, body, token) => {
    const response = await fetch(`${BASE_URL}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return json;
  };

  // The newest 500 mails, or one recipient's (the outbox answers a page: 50 newest unless asked), oldest
  // first here: the outbox lists newest first, and journeys look for new mail at the end.
  const outbox = async (to) =>
    (await api('GET', `/_local/outbox?limit=500${to ? `&to=${encodeURIComponent(to)}` : ''}`)).reverse();

  async function adminSession() {
    session ??= (async () => {
      const email = 'admin@example.com';
      const before = (await outbox(email)).length;
      await api('POST', '/api/user/login/', { email });
      const mail = await eventually(
        async () => (await outbox(email)).slice(before).at(-1),
        (m) => Boolean(loginCode(m)),
        'the login code in the outbox',
      );
      const code = loginCode(mail);
      const signedIn = await api('POST', '/api/user/verify/', { email, code });
      check(signedIn.token && signedIn.userInfo?.role === 'admin', 'admin@example.com signs in as an admin');
      return signedIn;
    })();
    return session;
  }

  /** A page whose app starts signed in as the admin: the persisted auth state as redux-persist stores it. */
  async function adminPage(newPage) {
    const { token, userInfo } = await adminSession();
    const page = await newPage({ width: 1280, height: 900 });
    const persisted = JSON.stringify({
      Auth: JSON.stringify({ userInfo, token }),
      _persist: JSON.stringify({ version: 1, rehydrated: true }),
    });
    await page.addInitScript((value) => window.localStorage.setItem('persist:root', value), persisted);
    return page;
  }

  /** A paid order of one `drinkId` by `email`, through the API with Stripe's 4242 test card. */
  async function paidOrder(email, drinkId) {
    const form = new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' });
    const made = await fetch(`${BASE_URL}/_local/stripe/v1/payment_methods`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });
    const method = await made.json();
    check(made.ok && method.id, 'a PaymentMethod for the 4242 card');
    return api('POST', '/api/order/create/', {
      fullname: 'Amira Haddad',
      address: '1 High St, Leeds LS1 1AA',
      phone: '07700 900123',
      email,
      message: '',
      product: [{ product: drinkId, qty: 1 }],
      payment: { provider: 'stripe', paymentMethod: method.id },
    });
  }

  return { api, outbox, adminSession, adminPage, paidOrder };
}
