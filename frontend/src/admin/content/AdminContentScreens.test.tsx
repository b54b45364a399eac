import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../state/session/authSlice';
import { fakeFetch, json } from '../../testing/fakeFetch';
import { returnsPolicy, siteInfo } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';

const admin = { auth: { ...initialAuthState, token: 't', userInfo: { email: 'admin@example.com', role: 'admin' } } };

describe('admin entry screens', () => {
  it('list the entries; the form creates when it has no _id, then the list refetches', async () => {
    let items = [returnsPolicy];
    const api = shopApi({
      'GET /api/policy/': () => json(items),
      'POST /api/policy/create/': ({ body }) => {
        items = [...items, { ...returnsPolicy, ...(body as object), _id: 'pol-2' }];
        return json(items.at(-1), 201);
      },
    });
    const { user } = renderApp('/new/uk/policies', { deps: { fetch: api.fetch }, preloadedState: admin });
    const list = await screen.findByTestId('policy-list', undefined, { timeout: 5000 });
    expect(within(list).getByText('Returns policy')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Create policy' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Title'), 'Privacy policy');
    await user.type(screen.getByLabelText('Text'), 'We keep your details safe.');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await within(screen.getByTestId('policy-list')).findByText('Privacy policy')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Privacy policy', des: 'We keep your details safe.', image: [], sort: 0 });
    expect(api.calls.filter((c) => c.method === 'GET' && c.url.pathname === '/api/policy/').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByLabelText('Title')).toHaveValue('');
  });

  it('previews the text beside the editor as the shop renders it, and a save says so with the focus on it', async () => {
    const api = shopApi({
      'POST /api/policy/create/': ({ body }) => json({ ...returnsPolicy, ...(body as object), _id: 'pol-2' }, 201),
    });
    const { user } = renderApp('/new/uk/policies', { deps: { fetch: api.fetch }, preloadedState: admin });
    // The admin screen's chunk loads first: give a busy machine time.
    await screen.findByTestId('policy-list', undefined, { timeout: 5000 });
    const preview = screen.getByTestId('policy-preview');
    expect(preview).toHaveTextContent('The text shows here as shoppers will read it.');
    await user.type(screen.getByLabelText('Title'), 'Privacy policy');
    await user.type(screen.getByLabelText('Text'), '## Who we are{Enter}A small drinks shop.{Enter}{Enter}We keep your details safe.');
    // The heading and paragraphs as the policy page draws them, under the preview's own heading.
    expect(within(preview).getByRole('heading', { level: 4, name: 'Preview' })).toBeInTheDocument();
    expect(within(preview).getByRole('heading', { level: 5, name: 'Who we are' })).toBeInTheDocument();
    expect(within(preview).getByText('A small drinks shop.').tagName).toBe('P');
    expect(within(preview).getByText('We keep your details safe.').tagName).toBe('P');
    expect(within(preview).getByText('Privacy policy')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const notice = await screen.findByTestId('write-notice');
    expect(notice).toHaveTextContent('Created “Privacy policy”.');
    await waitFor(() => expect(notice).toHaveFocus());
  });

  it('a policy previews its draft and lists its kept versions, each readable', async () => {
    const api = shopApi({
      'GET /api/policy/versions/pol-returns': [
        { version: 2, name: 'Returns policy', savedAt: '2026-11-20T10:00:00Z', source: 'admin' },
        { version: 1, name: 'Returns policy', savedAt: '2026-11-01T10:00:00Z', source: 'standard' },
      ],
      'GET /api/policy/versions/pol-returns/1': {
        _id: 'pol-returns',
        version: 1,
        name: 'Returns policy',
        des: 'The first words we had.',
        savedAt: '2026-11-01T10:00:00Z',
        source: 'standard',
      },
    });
    const { user } = renderApp('/new/uk/policies', { deps: { fetch: api.fetch }, preloadedState: admin });
    await user.click(await screen.findByRole('button', { name: 'Update Returns policy' }));
    const versions = await screen.findByTestId('policy-versions');
    expect(await within(versions).findByText('Version 2')).toBeInTheDocument();
    expect(within(versions).getByText(/the standard text/)).toBeInTheDocument();
    await user.click(within(versions).getByRole('button', { name: 'Read version 1' }));
    expect(await screen.findByTestId('policy-version-text')).toHaveTextContent('The first words we had.');
    const text = screen.getByLabelText('Text');
    await user.clear(text);
    await user.type(text, 'Intro.{enter}## Sending back{enter}Post it.');
    const preview = screen.getByTestId('policy-preview');
    expect(within(preview).getByRole('heading', { name: 'Sending back' })).toBeInTheDocument();
  });

  it('Update fills the form (update mode) and puts to the entry', async () => {
    const api = shopApi({ 'PUT /api/policy/update/pol-returns': returnsPolicy });
    const { user } = renderApp('/new/uk/policies', { deps: { fetch: api.fetch }, preloadedState: admin });
    await user.click(await screen.findByRole('button', { name: 'Update Returns policy' }));
    expect(screen.getByRole('heading', { name: 'Update policy: Returns policy' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Returns policy');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT' && c.url.pathname === '/api/policy/update/pol-returns')).toBe(true));
  });

  it("shows the server's 422 message at the field it names", async () => {
    const api = shopApi({ 'POST /api/link/create/': json({ message: 'link must be https://... or a shop path /...' }, 422) });
    const { user } = renderApp('/new/uk/links', { deps: { fetch: api.fetch }, preloadedState: admin });
    await screen.findByTestId('link-list');
    await user.type(screen.getByLabelText('Name'), 'Stockists');
    await user.type(screen.getByLabelText('Link'), '/somewhere');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('link must be https://... or a shop path /...')).toBeInTheDocument();
    expect(screen.getByLabelText('Link')).toHaveAttribute('aria-invalid', 'true');
  });

  it('checks the name before sending', async () => {
    const api = shopApi({ 'GET /api/category/': [] });
    const { user } = renderApp('/new/uk/categories', { deps: { fetch: api.fetch }, preloadedState: admin });
    expect(await screen.findByText('No category yet')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'ab');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('name must be at least 3 characters')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('deletes after a confirm, then refetches; no confirm, no delete', async () => {
    let items = [returnsPolicy];
    const api = shopApi({
      'GET /api/about/': () => json(items),
      'DELETE /api/about/delete/pol-returns': () => {
        items = [];
        return json({ message: 'Deleted' });
      },
    });
    const confirm = vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal('confirm', confirm);
    const { user } = renderApp('/new/uk/about', { deps: { fetch: api.fetch }, preloadedState: admin });
    await user.click(await screen.findByRole('button', { name: 'Delete Returns policy' }));
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete Returns policy' }));
    expect(await screen.findByText('No about text yet')).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledTimes(2);
  });

  it("a failed list shows the error and 'Try again' refetches", async () => {
    let fail = true;
    const api = shopApi({ 'GET /api/whoweare/': () => (fail ? json({ message: 'Try later' }, 500) : json([])) });
    const { user } = renderApp('/new/uk/whoweare', { deps: { fetch: api.fetch }, preloadedState: admin });
    expect(await screen.findByRole('alert')).toHaveTextContent('Try later');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No who-we-are text yet')).toBeInTheDocument();
  });
});

describe('pictures by picking in the content forms', () => {
  const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'shelf.png', { type: 'image/png' });
  const chosenNames = () => screen.queryAllByTestId('chosen-image').map((row) => row.querySelector('code')?.textContent);

  it('a new category uploads a picture in place (the gallery, mode 22), picks another and is created with both in order', async () => {
    const api = shopApi({
      'GET /api/category/': [],
      'GET /api/uploading/sh/': ['shelf-old.png'],
      'POST /api/new/': ({ url }) => {
        expect([url.searchParams.get('mode'), url.searchParams.get('id')]).toEqual(['22', null]);
        return json(['new.png'], 201);
      },
      'POST /api/category/create/': ({ body }) => json({ _id: 'c-new', ...(body as object) }, 201),
    });
    const { user } = renderApp('/new/uk/categories', { deps: { fetch: api.fetch }, preloadedState: admin });
    await user.type(await screen.findByLabelText('Name'), 'Juices');
    expect(screen.queryByRole('textbox', { name: /Images/ })).not.toBeInTheDocument();
    await user.upload(screen.getByLabelText(/Upload new pictures/), [png()]);
    await user.click(screen.getByRole('button', { name: 'Upload pictures' }));
    expect(await screen.findByText('The picture is uploaded and chosen.')).toBeInTheDocument();
    await user.click(await screen.findByRole('checkbox', { name: 'shelf-old.png' }));
    await user.click(screen.getByRole('button', { name: 'Move shelf-old.png up' }));
    expect(chosenNames()).toEqual(['shelf-old.png', 'new.png']);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(api.calls.find((c) => c.url.pathname === '/api/category/create/')?.body).toMatchObject({ name: 'Juices', image: ['shelf-old.png', 'new.png'] }));
  });

  it('a category drops pictures: POST /api/delete/array/, then PUT /api/category/update/{id} with the rest', async () => {
    vi.stubGlobal('confirm', () => true);
    let sodas = { _id: 'c-soda', name: 'Sodas', des: 'Fizzy', image: ['old.png', 'keep.png'] };
    const api = shopApi({
      'GET /api/category/': () => json([sodas]),
      'POST /api/delete/array/': ({ body }) => json({ message: 'deleted', deleted: (body as { images: string[] }).images }),
      'PUT /api/category/update/c-soda': ({ body }) => {
        sodas = { ...sodas, ...(body as object) };
        return json(sodas);
      },
    });
    const { user } = renderApp('/new/uk/categories', { deps: { fetch: api.fetch }, preloadedState: admin });
    await screen.findByTestId('category-list');
    await user.click(screen.getByRole('button', { name: 'Update Sodas' }));
    const removal = screen.getByTestId('picture-removal');
    await user.click(within(removal).getByLabelText('Remove old.png'));
    await user.click(within(removal).getByRole('button', { name: 'Remove selected pictures' }));
    expect(await within(removal).findByText('The picture is removed.')).toBeInTheDocument();
    const writes = api.calls.filter((c) => c.method !== 'GET');
    expect(writes.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(['POST /api/delete/array/', 'PUT /api/category/update/c-soda']);
    expect(writes.map((c) => c.body)).toEqual([{ images: ['old.png'] }, { image: ['keep.png'] }]);
    expect(chosenNames()).toEqual(['keep.png']);
  });

  it('the site info picks its pictures from the gallery and saves them in order', async () => {
    const api = shopApi({
      'GET /api/connect/uk/palestine/connect/': { ...siteInfo, _id: 'main', image: ['front.png'] },
      'GET /api/uploading/sh/': ['front.png', 'side.png'],
      'PUT /api/connect/update/main': ({ body }) => json({ ...siteInfo, _id: 'main', ...(body as object) }),
    });
    const { user } = renderApp('/new/uk/siteinfo', { deps: { fetch: api.fetch }, preloadedState: admin });
    const side = await screen.findByRole('checkbox', { name: 'side.png' });
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'front.png' })).toBeChecked());
    await user.click(side);
    await user.click(screen.getByRole('button', { name: 'Move front.png down' }));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ image: ['side.png', 'front.png'] }));
  });
});

describe('admin site info screen', () => {
  const stored = { ...siteInfo, _id: 'main', Social: { instagram: 'https://instagram.com/d' }, discount: '' };

  it('fills the form from the site info and updates it with PUT, then refetches', async () => {
    const api = shopApi({
      'GET /api/connect/uk/palestine/connect/': stored,
      'PUT /api/connect/update/main': ({ body }) => json({ ...stored, ...(body as object) }),
    });
    const { user } = renderApp('/new/uk/siteinfo', { deps: { fetch: api.fetch }, preloadedState: admin });
    const instagram = await screen.findByLabelText('Instagram');
    await waitFor(() => expect(instagram).toHaveValue('https://instagram.com/d'));
    await user.type(screen.getByLabelText('Promotion line'), '10% off');
    await user.type(screen.getByLabelText('Registered company name'), 'Palestine Drinks Ltd');
    await user.type(screen.getByLabelText('Company number'), '12345678');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('The site info is saved.')).toBeInTheDocument();
    const put = api.calls.find((c) => c.method === 'PUT');
    // The contact fields are saved by the contact form (POST /api/contact/create/), never through the site info.
    expect(put?.body).not.toHaveProperty('phone');
    expect(put?.body).not.toHaveProperty('open');
    expect(put?.body).toMatchObject({
      discount: '10% off',
      companyName: 'Palestine Drinks Ltd',
      companyNumber: '12345678',
      Social: { facebook: '', instagram: 'https://instagram.com/d', x: '', tiktok: '', youtube: '' },
    });
    await waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'GET' && c.url.pathname === '/api/connect/uk/palestine/connect/').length).toBeGreaterThanOrEqual(2),
    );
  });

  it('creates with POST when the site info has no _id yet', async () => {
    const api = shopApi({
      'GET /api/connect/uk/palestine/connect/': { _id: null },
      'POST /api/connect/create/': ({ body }) => json({ ...(body as object), _id: 'main' }, 201),
    });
    const { user } = renderApp('/new/uk/siteinfo', { deps: { fetch: api.fetch }, preloadedState: admin });
    expect(await screen.findByRole('heading', { name: 'Create the site info' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'Palestine Drinks');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST' && c.url.pathname === '/api/connect/create/')).toBe(true));
  });

  it("shows a social link's 422 message at its field", async () => {
    const api = shopApi({
      'GET /api/connect/uk/palestine/connect/': stored,
      'PUT /api/connect/update/main': json({ message: 'Social.youtube must be a web address (https://...)' }, 422),
    });
    const { user } = renderApp('/new/uk/siteinfo', { deps: { fetch: api.fetch }, preloadedState: admin });
    await waitFor(() => expect(screen.getByLabelText('Instagram')).toHaveValue('https://instagram.com/d'));
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Social.youtube must be a web address (https://...)')).toBeInTheDocument();
    expect(screen.getByLabelText('YouTube')).toHaveAttribute('aria-invalid', 'true');
  });

  it('reads the contact details with GET /api/contact/ and saves them with POST /api/contact/create/', async () => {
    let contact = { phone: '0113 496 0000', email: 'hello@example.com', address: '', open: 'Mon-Fri 09:00-18:00', close: '' };
    const api = shopApi({
      'GET /api/connect/uk/palestine/connect/': stored,
      'GET /api/contact/': () => json(contact),
      'POST /api/contact/create/': ({ body }) => {
        contact = { ...contact, ...(body as object) };
        return json(contact);
      },
    });
    const { user } = renderApp('/new/uk/siteinfo', { deps: { fetch: api.fetch }, preloadedState: admin });
    const form = await screen.findByRole('form', { name: 'Contact details' });
    const phone = await within(form).findByLabelText('Phone');
    expect(phone).toHaveValue('0113 496 0000');
    await user.clear(phone);
    await user.type(phone, '0113 496 1234');
    await user.type(within(form).getByLabelText('Address'), '1 Leeds Road');
    await user.click(within(form).getByRole('button', { name: 'Save contact details' }));
    expect(await within(form).findByText('The contact details are saved.')).toBeInTheDocument();
    const writes = api.calls.filter((c) => c.method !== 'GET');
    expect(writes.map((c) => c.url.pathname)).toEqual(['/api/contact/create/']);
    expect(writes[0]?.body).toEqual({ phone: '0113 496 1234', email: 'hello@example.com', open: 'Mon-Fri 09:00-18:00', close: '', address: '1 Leeds Road' });
    // A bad phone never leaves the form.
    await user.clear(phone);
    await user.type(phone, '12');
    await user.click(within(form).getByRole('button', { name: 'Save contact details' }));
    expect(within(form).getByText('phone must be at least 10 digits')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('a customer never reaches it', async () => {
    const api = fakeFetch({});
    renderApp('/new/uk/siteinfo', {
      deps: { fetch: api.fetch },
      preloadedState: { auth: { ...initialAuthState, token: 't', userInfo: { email: 'shopper@example.com', role: 'customer' } } },
    });
    await waitFor(() => expect(screen.queryByLabelText('Phone')).not.toBeInTheDocument());
  });
});
