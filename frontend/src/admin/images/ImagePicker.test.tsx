import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { RootState } from '../../app/store';
import { fakeFetch, json } from '../../testing/fakeFetch';
import { renderWithProviders } from '../../testing/renderWithProviders';
import { ImagePicker, moved, withAdded } from './ImagePicker';

const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};

/** The picker in a form that keeps its list and shows it, as the forms do. */
function Harness({ initial = [] }: { initial?: string[] }) {
  const [names, setNames] = useState<string[]>(initial);
  return (
    <>
      <ImagePicker label="Images" value={names} onChange={setNames} />
      <output data-testid="names">{names.join(',')}</output>
    </>
  );
}

const chosen = () => screen.getByTestId('names').textContent;

describe('list helpers', () => {
  it('moves a name one place and never past either end', () => {
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moved(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
  });

  it('adds names at the end, each once', () => {
    expect(withAdded(['a'], ['b', 'a', 'b'])).toEqual(['a', 'b']);
  });
});

describe('ImagePicker', () => {
  const gallery = (names = ['new.png', 'can.png', 'box.png']) => fakeFetch({ 'GET /api/uploading/sh/': names });

  it('lists the gallery as checkboxes labelled by their thumbnails, and ticking chooses in that order', async () => {
    const { user } = renderWithProviders(<Harness />, { preloadedState: admin, deps: { fetch: gallery().fetch } });
    const box = await screen.findByRole('checkbox', { name: 'box.png' });
    expect(within(box.closest('label')!).getByRole('img', { name: 'box.png' })).toHaveAttribute('src', '/uploads/box.png');
    await user.click(box);
    await user.click(screen.getByRole('checkbox', { name: 'new.png' }));
    expect(chosen()).toBe('box.png,new.png');
    expect(screen.getByRole('checkbox', { name: 'box.png' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'can.png' })).not.toBeChecked();
    const rows = screen.getAllByTestId('chosen-image');
    expect(rows.map((row) => row.querySelector('code')?.textContent)).toEqual(['box.png', 'new.png']);
    expect(rows[0]).toHaveTextContent('(main)');
    // Unticking drops it again.
    await user.click(screen.getByRole('checkbox', { name: 'box.png' }));
    expect(chosen()).toBe('new.png');
  });

  it('orders by the arrows and removes', async () => {
    const { user } = renderWithProviders(<Harness initial={['a.png', 'b.png', 'c.png']} />, { preloadedState: admin, deps: { fetch: gallery(['a.png', 'b.png', 'c.png']).fetch } });
    await user.click(screen.getByRole('button', { name: 'Move c.png up' }));
    expect(chosen()).toBe('a.png,c.png,b.png');
    await user.click(screen.getByRole('button', { name: 'Move a.png down' }));
    expect(chosen()).toBe('c.png,a.png,b.png');
    // The first cannot go up, the last cannot go down: they say so and change nothing.
    expect(screen.getByRole('button', { name: 'Move c.png up' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('button', { name: 'Move c.png up' }));
    await user.click(screen.getByRole('button', { name: 'Move b.png down' }));
    expect(chosen()).toBe('c.png,a.png,b.png');
    await user.click(screen.getByRole('button', { name: 'Remove a.png' }));
    expect(chosen()).toBe('c.png,b.png');
    expect(await screen.findByRole('checkbox', { name: 'a.png' })).not.toBeChecked();
  });

  it('uploads in place to the gallery (no item) and adds the stored names to the end of the list', async () => {
    let stored = ['old.png'];
    const api = fakeFetch({
      'GET /api/uploading/sh/': () => json(stored),
      'POST /api/new/': () => {
        stored = ['u1.png', 'u2.png', ...stored];
        return json(['u1.png', 'u2.png'], 201);
      },
    });
    const { user } = renderWithProviders(<Harness initial={['old.png']} />, { preloadedState: admin, deps: { fetch: api.fetch } });
    const files = [new File(['x'], 'front.png', { type: 'image/png' }), new File(['y'], 'back.png', { type: 'image/png' })];
    await user.upload(screen.getByLabelText(/Upload new pictures/), files);
    await user.click(screen.getByRole('button', { name: 'Upload pictures' }));
    expect(await screen.findByText('2 pictures are uploaded and chosen.')).toHaveAttribute('role', 'status');
    expect(chosen()).toBe('old.png,u1.png,u2.png');
    const post = api.calls.find((c) => c.method === 'POST');
    expect(post?.url.searchParams.get('mode')).toBe('22');
    expect(post?.url.searchParams.has('id')).toBe(false);
    expect((post?.body as FormData).getAll('image')).toHaveLength(2);
    // The gallery is read again and shows the new pictures ticked.
    expect(await screen.findByRole('checkbox', { name: 'u2.png' })).toBeChecked();
  });

  it('shows a refused upload with the spec label and keeps the list', async () => {
    const api = fakeFetch({
      'GET /api/uploading/sh/': [],
      'POST /api/new/': json({ message: 'image: logo.svg is not a PNG, JPEG, WebP or GIF image' }, 415),
    });
    const { user } = renderWithProviders(<Harness />, { preloadedState: admin, deps: { fetch: api.fetch } });
    expect(await screen.findByText(/No images yet/)).toBeInTheDocument();
    await user.upload(screen.getByLabelText(/Upload new pictures/), new File(['<svg/>'], 'logo.svg', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Upload pictures' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('error: image: logo.svg is not a PNG, JPEG, WebP or GIF image');
    expect(chosen()).toBe('');
  });

  it('says when the gallery cannot be read, keeps the chosen list, and Try again reads it', async () => {
    let fail = true;
    const api = fakeFetch({ 'GET /api/uploading/sh/': () => (fail ? json({ message: 'Try later' }, 503) : json(['a.png', 'b.png'])) });
    const { user } = renderWithProviders(<Harness initial={['a.png']} />, { preloadedState: admin, deps: { fetch: api.fetch } });
    expect(await screen.findByRole('alert')).toHaveTextContent('We could not load the gallery: Try later');
    expect(screen.getAllByTestId('chosen-image')).toHaveLength(1);
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('checkbox', { name: 'b.png' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'a.png' })).toBeChecked();
  });
});
