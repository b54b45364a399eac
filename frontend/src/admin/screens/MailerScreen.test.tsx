import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RootState } from '../../app/store';
import { json } from '../../testing/fakeFetch';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';

const FIRST_LOAD = { timeout: 5000 };
const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};
const lists = [
  { name: 'Newsletter', count: 2 },
  { name: 'Offers and new drinks', count: 1 },
];

afterEach(() => vi.unstubAllGlobals());

describe('admin mailer screen', () => {
  it('previews only a valid letter, with the spec messages otherwise', async () => {
    const api = shopApi({ 'GET /api/sub/': lists });
    const { user } = renderApp('/new/uk/mailer', { preloadedState: admin, deps: { fetch: api.fetch } });
    const special = await screen.findByRole('checkbox', { name: /Special selection/ }, FIRST_LOAD);
    await user.click(screen.getByRole('button', { name: 'Show letter' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Add Mail List');

    await user.click(special);
    expect(screen.getByRole('checkbox', { name: /^Newsletter \(/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /^Offers and new drinks \(/ })).toBeChecked();
    await user.click(special);
    expect(screen.getByRole('checkbox', { name: /^Newsletter \(/ })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: /^Newsletter \(/ }));
    await user.type(screen.getByLabelText('Subject'), 'Hi');
    await user.type(screen.getByLabelText('Title'), 'Mango fizz');
    await user.type(screen.getByLabelText('Description'), 'New drink');
    await user.click(screen.getByRole('button', { name: 'Show letter' }));
    expect(screen.getByRole('alert')).toHaveTextContent('inputs is empty');
    expect(screen.queryByTestId('letter-preview')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Subject'), ' there');
    await user.click(screen.getByRole('button', { name: 'Add section' }));
    expect(screen.getAllByTestId('letter-section')).toHaveLength(2);
    await user.type(screen.getByLabelText('Title', { selector: '#mail-title-1' }), 'ab');
    await user.type(screen.getByLabelText('Description', { selector: '#mail-description-1' }), 'Second part');
    await user.click(screen.getByRole('button', { name: 'Show letter' }));
    const preview = screen.getByTestId('letter-preview');
    expect(within(preview).getByRole('heading', { name: 'Hi there' })).toBeInTheDocument();
    expect(within(preview).getByText('Mango fizz')).toBeInTheDocument();
    expect(within(preview).getByText('Second part')).toBeInTheDocument();
    // A title of 2 characters is left out of the preview.
    expect(within(preview).queryByText('ab')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByLabelText('Subject')).toHaveValue('');
  });

  it('sends after the confirm, then says so and offers to send again', async () => {
    const api = shopApi({
      'GET /api/sub/': lists,
      'POST /api/subscription/mailer/': json({ message: 'Emails have been sent', recipients: 3 }, 202),
    });
    const confirm = vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal('confirm', confirm);
    const { user } = renderApp('/new/uk/mailer', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('checkbox', { name: /Special selection/ }, FIRST_LOAD));
    await user.type(screen.getByLabelText('Subject'), ' Summer ');
    await user.type(screen.getByLabelText('Title'), 'Mango fizz');
    await user.type(screen.getByLabelText('Description'), 'New drink');
    await user.type(screen.getByLabelText('Link'), 'https://shop.example.com/');
    await user.click(screen.getByRole('button', { name: 'Show letter' }));
    await user.click(screen.getByRole('button', { name: 'Send Mail' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure?');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Send Mail' }));
    expect(await screen.findByText(/Emails have been sent/)).toHaveTextContent('Emails have been sent (3 recipients).');
    const post = api.calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      MailList: ['Newsletter', 'Offers and new drinks'],
      data: { subject: 'Summer', sections: [{ title: 'Mango fizz', description: 'New drink', link: 'https://shop.example.com/', image: '' }] },
    });
    await user.click(screen.getByRole('button', { name: 'Send another mail' }));
    await waitFor(() => expect(screen.getByLabelText('Subject')).toHaveValue(''));
  });

  it('shows the server refusal and keeps the preview', async () => {
    const api = shopApi({
      'GET /api/sub/': lists,
      'POST /api/subscription/mailer/': json({ message: 'inputs is empty' }, 422),
    });
    vi.stubGlobal('confirm', () => true);
    const { user } = renderApp('/new/uk/mailer', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('checkbox', { name: /^Newsletter \(/ }, FIRST_LOAD));
    await user.type(screen.getByLabelText('Subject'), 'Summer');
    await user.type(screen.getByLabelText('Title'), 'Mango fizz');
    await user.type(screen.getByLabelText('Description'), 'New drink');
    await user.click(screen.getByRole('button', { name: 'Show letter' }));
    await user.click(screen.getByRole('button', { name: 'Send Mail' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('inputs is empty');
    expect(screen.getByTestId('letter-preview')).toBeInTheDocument();
  });
});
