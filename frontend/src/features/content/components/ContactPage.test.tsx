import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../testing/fakeFetch';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { invalidFields } from './ContactForm';

const FEEDBACK = 'POST /api/_uk_home/palestine/feedback/send/only/';
const PROMISE = 'Thank you: we reply within 24 hours on business days (Monday to Friday).';

async function fill(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Full name'), 'Layla Haddad');
  await user.type(screen.getByLabelText('E-mail'), 'layla@example.com');
  await user.type(screen.getByLabelText('Phone'), '07700 900123');
  await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Do you deliver to Leeds?');
}

describe('ContactPage', () => {
  it('shows the reply promise, the contact details and the opening hours', async () => {
    renderApp('/contact/drinks-contact/', { deps: { fetch: shopApi().fetch } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact us' })).toBeInTheDocument();
    expect(screen.getAllByText(/within 24 hours on business days \(Monday to Friday\)/).length).toBeGreaterThan(0);
    const details = screen.getByRole('complementary');
    expect(await within(details).findByRole('link', { name: 'hello@example.com' })).toHaveAttribute('href', 'mailto:hello@example.com');
    expect(within(details).getByText('Mon-Fri 09:00-18:00')).toBeInTheDocument();
    expect(document.title).toBe('Contact us | Palestine Drinks');
    expect(document.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBe('Contact us | Palestine Drinks');
    const ld = JSON.parse(document.querySelector('script[type="application/ld+json"]')?.textContent ?? '{}');
    expect(ld['@graph'].map((t: { '@type': string }) => t['@type'])).toEqual(['Store', 'BreadcrumbList']);
  });

  it('reads the details from GET /api/contact/, not from the site info', async () => {
    const api = shopApi({
      'GET /api/contact/': { phone: '0113 496 7777', email: 'contact@example.com', address: '1 Leeds Road', open: 'Mon-Sat 08:00-20:00', close: 'Sundays' },
    });
    renderApp('/contact/drinks-contact/', { deps: { fetch: api.fetch } });
    const details = await screen.findByRole('complementary');
    expect(await within(details).findByRole('link', { name: 'contact@example.com' })).toHaveAttribute('href', 'mailto:contact@example.com');
    expect(within(details).getByRole('link', { name: '0113 496 7777' })).toBeInTheDocument();
    expect(within(details).getByText('1 Leeds Road')).toBeInTheDocument();
    expect(within(details).getByText('Mon-Sat 08:00-20:00')).toBeInTheDocument();
    expect(within(details).getByText('Sundays')).toBeInTheDocument();
    expect(within(details).queryByText('hello@example.com')).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.url.pathname === '/api/contact/')).toHaveLength(1);
  });

  it('offers a retry when the contact details fail to load', async () => {
    let fail = true;
    const api = shopApi({
      'GET /api/contact/': () => (fail ? json({ message: 'Try later' }, 503) : json({ email: 'contact@example.com' })),
    });
    const { user } = renderApp('/contact/drinks-contact/', { deps: { fetch: api.fetch } });
    const details = await screen.findByRole('complementary');
    expect(await within(details).findByRole('alert')).toHaveTextContent('We could not load our contact details: Try later');
    fail = false;
    await user.click(within(details).getByRole('button', { name: 'Try again' }));
    expect(await within(details).findByRole('link', { name: 'contact@example.com' })).toBeInTheDocument();
  });

  it('checks every field before sending, and sends nothing while one fails', async () => {
    const api = shopApi();
    const { user } = renderApp('/contact/drinks-contact/', { deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: 'Send message' }));
    expect(screen.getByText('Enter your full name (more than 5 characters).')).toBeInTheDocument();
    expect(screen.getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(screen.getByText('Enter a phone number of at least 10 digits.')).toBeInTheDocument();
    expect(screen.getByText('Write a message of 10 to 1000 characters.')).toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).toHaveFocus();
    expect(screen.getByLabelText('Full name')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('on success shows the server message, and offers another message', async () => {
    const api = shopApi({ [FEEDBACK]: json({ _id: 'f1', message: PROMISE }, 201) });
    const { user } = renderApp('/contact/drinks-contact/', { deps: { fetch: api.fetch } });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByTestId('contact-sent')).toHaveTextContent(PROMISE);
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({
      fullname: 'Layla Haddad',
      email: 'layla@example.com',
      phone: '07700 900123',
      message: 'Do you deliver to Leeds?',
    });
    await user.click(screen.getByRole('button', { name: 'Send another message' }));
    expect(screen.getByLabelText('Full name')).toHaveValue('');
  });

  it.each([
    [429, 'You have sent several messages already'],
    [422, 'phone must be at least 10 digits'],
  ])('shows the server message of a %i and keeps what was typed', async (status, message) => {
    const { user } = renderApp('/contact/drinks-contact/', { deps: { fetch: shopApi({ [FEEDBACK]: json({ message }, status) }).fetch } });
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect((await screen.findAllByText(message))[0]).toHaveAttribute('role', 'alert');
    expect(screen.getByLabelText('Full name')).toHaveValue('Layla Haddad');
    // A 422 names the field, which is marked as well.
    const phone = screen.getByLabelText('Phone');
    if (status === 422) expect(phone).toHaveAttribute('aria-invalid', 'true');
    else expect(phone).not.toHaveAttribute('aria-invalid');
  });

  it('applies the shared rules: full name over 5, a valid e-mail, phone of 10+, message 10 to 1000', () => {
    const ok = { fullname: 'Layla Haddad', email: 'a@b.co', phone: '0113 496 0000', message: 'Hello there!' };
    expect(invalidFields(ok)).toEqual([]);
    expect(invalidFields({ ...ok, fullname: 'Layla' })).toEqual(['fullname']);
    expect(invalidFields({ ...ok, email: 'a@b' })).toEqual(['email']);
    expect(invalidFields({ ...ok, phone: '0113 4960' })).toEqual(['phone']);
    expect(invalidFields({ ...ok, message: 'x'.repeat(1001) })).toEqual(['message']);
    expect(invalidFields({ ...ok, message: '   short   ' })).toEqual(['message']);
  });
});
