import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RootState } from '../../app/store';
import { json } from '../../testing/fakeFetch';
import { mango } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';

const FIRST_LOAD = { timeout: 5000 };
const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};
const png = (name: string) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });

afterEach(() => vi.unstubAllGlobals());

describe('admin images screen', () => {
  it('shows every image as a 200 px preview and copies a name', async () => {
    const api = shopApi({ 'GET /api/uploading/sh/': ['b2.png', 'a1.jpg'] });
    const { user } = renderApp('/new/uk/show', { preloadedState: admin, deps: { fetch: api.fetch } });
    const tiles = await screen.findAllByTestId('gallery-image', undefined, FIRST_LOAD);
    expect(tiles).toHaveLength(2);
    const preview = tiles[0]!.querySelector('img');
    expect(preview).toHaveAttribute('src', '/uploads/b2.png');
    expect(preview).toHaveAttribute('height', '200');
    await user.click(within(tiles[1]!).getByRole('button', { name: 'Copy name a1.jpg' }));
    // user-event puts a clipboard stub on the page; it holds what the screen wrote.
    expect(await navigator.clipboard.readText()).toBe('a1.jpg');
    expect(within(tiles[1]!).getByRole('button', { name: 'Copy name a1.jpg' })).toHaveTextContent('Copied');
  });

  it('uploads to the gallery as multipart image fields, then reloads', async () => {
    let names = ['a1.jpg'];
    const api = shopApi({
      'GET /api/uploading/sh/': () => json(names),
      'POST /api/new/': ({ url }) => {
        expect(url.searchParams.get('mode')).toBe('22');
        names = ['n1.png', 'n2.png', ...names];
        return json(['n1.png', 'n2.png'], 201);
      },
    });
    const { user } = renderApp('/new/uk/show', { preloadedState: admin, deps: { fetch: api.fetch } });
    await screen.findAllByTestId('gallery-image', undefined, FIRST_LOAD);
    await user.upload(screen.getByLabelText(/Images to upload/), [png('one.png'), png('two.png')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('status')).toHaveTextContent('2 images are uploaded.');
    const sent = api.calls.find((c) => c.method === 'POST')?.body as FormData;
    expect(sent.getAll('image').map((f) => (f as File).name)).toEqual(['one.png', 'two.png']);
    await waitFor(() => expect(screen.getAllByTestId('gallery-image')).toHaveLength(3));
  });

  it('sends a single file with POST /api/uploading/, the spec\'s single upload', async () => {
    let names = ['a1.jpg'];
    const api = shopApi({
      'GET /api/uploading/sh/': () => json(names),
      'POST /api/uploading/': () => {
        names = ['s1.png', ...names];
        return json('s1.png', 201);
      },
    });
    const { user } = renderApp('/new/uk/show', { preloadedState: admin, deps: { fetch: api.fetch } });
    await screen.findAllByTestId('gallery-image', undefined, FIRST_LOAD);
    await user.upload(screen.getByLabelText(/Images to upload/), [png('one.png')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The image is uploaded.');
    const post = api.calls.filter((c) => c.method === 'POST');
    expect(post.map((c) => c.url.pathname)).toEqual(['/api/uploading/']);
    expect((post[0]?.body as FormData).getAll('image').map((f) => (f as File).name)).toEqual(['one.png']);
    await waitFor(() => expect(screen.getAllByTestId('gallery-image')).toHaveLength(2));
  });

  it("shows 'error url image' for a preview whose address does not load", async () => {
    const api = shopApi({ 'GET /api/uploading/sh/': ['gone.png', 'a1.jpg'] });
    renderApp('/new/uk/show', { preloadedState: admin, deps: { fetch: api.fetch } });
    const tiles = await screen.findAllByTestId('gallery-image', undefined, FIRST_LOAD);
    tiles[0]?.querySelector('img')?.dispatchEvent(new Event('error'));
    expect(await within(tiles[0] as HTMLElement).findByText('error url image')).toBeInTheDocument();
    expect(within(tiles[1] as HTMLElement).queryByText('error url image')).not.toBeInTheDocument();
  });

  it("shows the server's refusal of a file and refuses more than 4 before sending", async () => {
    const api = shopApi({
      'GET /api/uploading/sh/': [],
      'POST /api/new/': json({ message: 'image: fake.png is not a PNG, JPEG, WebP or GIF image' }, 415),
    });
    const { user } = renderApp('/new/uk/show', { preloadedState: admin, deps: { fetch: api.fetch } });
    expect(await screen.findByText('No images yet: upload the first ones above.', undefined, FIRST_LOAD)).toBeInTheDocument();
    const chooser = screen.getByLabelText(/Images to upload/);
    await user.upload(chooser, ['1', '2', '3', '4', '5'].map((n) => png(`${n}.png`)));
    expect(screen.getByText('Choose at most 4 images at once.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await user.upload(chooser, [png('fake.png'), png('other.png')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    // The spec's label for a failed image request, then the server's words.
    expect(await screen.findByRole('alert')).toHaveTextContent('error: image: fake.png is not a PNG, JPEG, WebP or GIF image');
  });

  it('deletes only after the confirm', async () => {
    const confirm = vi.fn<(message?: string) => boolean>().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal('confirm', confirm);
    const api = shopApi({ 'GET /api/uploading/sh/': ['a1.jpg'], 'DELETE /api/delete/image/a1.jpg': { message: 'a1.jpg is deleted', deleted: ['a1.jpg'] } });
    const { user } = renderApp('/new/uk/show', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: 'Delete a1.jpg' }, FIRST_LOAD));
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete a1.jpg' }));
    expect(await screen.findByRole('status')).toHaveTextContent('a1.jpg is deleted.');
  });
});

describe('pictures on the products form', () => {
  const chosenNames = () => screen.queryAllByTestId('chosen-image').map((row) => row.querySelector('code')?.textContent);

  it('uploads in place to the gallery (mode 22, no item) and the saved drink gets the new names on Save', async () => {
    const api = shopApi({
      'GET /api/product/': [mango],
      'GET /api/category/': [],
      'POST /api/new/': ({ url }) => {
        expect(url.searchParams.get('mode')).toBe('22');
        expect(url.searchParams.has('id')).toBe(false);
        return json(['new1.png'], 201);
      },
      [`PUT /api/product/update/${mango._id}`]: ({ body }) => json({ ...mango, ...(body as object) }),
    });
    const { user } = renderApp('/new/uk/products', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: `Edit ${mango.name}` }, FIRST_LOAD));
    await user.upload(screen.getByLabelText(/Upload new pictures/), [png('side.png')]);
    await user.click(screen.getByRole('button', { name: 'Upload pictures' }));
    expect(await screen.findByText('The picture is uploaded and chosen.')).toBeInTheDocument();
    expect(chosenNames()).toEqual([...mango.image, 'new1.png']);
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ image: [...mango.image, 'new1.png'] }));
  });

  it('removes pictures with POST /api/delete/array/, then updates the drink (mode 14) with the rest', async () => {
    const confirm = vi.fn<(message?: string) => boolean>().mockReturnValue(true);
    vi.stubGlobal('confirm', confirm);
    const order: string[] = [];
    const api = shopApi({
      'GET /api/product/': [mango],
      'GET /api/category/': [],
      'POST /api/delete/array/': ({ body }) => {
        order.push('delete');
        return json({ message: 'deleted', deleted: (body as { images: string[] }).images });
      },
      [`PUT /api/product/update/${mango._id}`]: ({ body }) => {
        order.push('update');
        return json({ ...mango, ...(body as object) });
      },
    });
    const { user } = renderApp('/new/uk/products', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: `Edit ${mango.name}` }, FIRST_LOAD));
    const [first, ...rest] = mango.image;
    const removal = screen.getByTestId('picture-removal');
    await user.click(within(removal).getByLabelText(`Remove ${first}`));
    await user.click(within(removal).getByRole('button', { name: 'Remove selected pictures' }));
    expect(await within(removal).findByText('The picture is removed.')).toBeInTheDocument();
    expect(confirm).toHaveBeenCalledWith(`do you wnat delete\nDelete ${first}? This cannot be undone.`);
    expect(order).toEqual(['delete', 'update']);
    expect(api.calls.find((c) => c.url.pathname === '/api/delete/array/')?.body).toEqual({ images: [first] });
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ image: rest });
    expect(chosenNames()).toEqual(rest);
    expect(within(removal).queryByLabelText(`Remove ${first}`)).not.toBeInTheDocument();
  });

  it("labels a failed removal with the spec's 'error' and keeps the pictures", async () => {
    vi.stubGlobal('confirm', () => true);
    const api = shopApi({
      'GET /api/product/': [mango],
      'GET /api/category/': [],
      'POST /api/delete/array/': json({ message: 'Try later' }, 503),
    });
    const { user } = renderApp('/new/uk/products', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: `Edit ${mango.name}` }, FIRST_LOAD));
    const removal = screen.getByTestId('picture-removal');
    await user.click(within(removal).getByLabelText(`Remove ${mango.image[0]}`));
    await user.click(within(removal).getByRole('button', { name: 'Remove selected pictures' }));
    expect(await within(removal).findByRole('alert')).toHaveTextContent('error: Try later');
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
    expect(chosenNames()).toEqual(mango.image);
  });
});
