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

const mailingsPage = (product: object[]) => ({ product, pages: 1, result: {} });

afterEach(() => vi.unstubAllGlobals());

describe('admin mailer screen', () => {
  it('previews only a valid letter, with the spec messages otherwise', async () => {
    const api = shopApi({ 'GET /api/sub/': lists, 'GET /api/subscription/mailings/': mailingsPage([]) });
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

  it('asks first naming the subject and the count, then shows "Queued, 0 of 3 sent" and the progress until sent, and offers to send again', async () => {
    const mailing = { _id: 'm-2', subject: 'Summer', lists: ['Newsletter', 'Offers and new drinks'], recipients: 3, sent: 0, failed: 0, skipped: 0, bounced: 0, complained: 0, createdAt: '2026-11-23T10:00:00Z' };
    const progress = [
      { ...mailing, status: 'queued', sent: 0 },
      { ...mailing, status: 'sending', sent: 1 },
      { ...mailing, status: 'sent', sent: 2, failed: 1, finishedAt: '2026-11-23T10:00:05Z' },
    ];
    let polls = 0;
    const api = shopApi({
      'GET /api/sub/': lists,
      'GET /api/subscription/mailings/': mailingsPage([{ ...mailing, _id: 'm-1', subject: 'Spring letter', status: 'sent', sent: 5, failed: 0, recipients: 5 }]),
      'GET /api/subscription/mailings/m-2': () => json(progress[Math.min(polls++, progress.length - 1)]),
      'POST /api/subscription/mailer/': json({ message: 'The mailing is queued: it goes out in the background', _id: 'm-2', recipients: 3 }, 202),
      'GET /api/subscription/recipients/': ({ url }) => json({ recipients: url.searchParams.get('lists') === 'Newsletter,Offers and new drinks' ? 3 : 99 }),
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
    // The spec's question first, then what it will do: the subject and the readers, each counted once.
    await waitFor(() =>
      expect(confirm).toHaveBeenCalledWith("Are you sure?\nSend 'Summer' to 3 subscribers of Newsletter and Offers and new drinks (each once)?"),
    );
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Send Mail' }));
    // Queued is not sent: the screen says where it stands, never 'Emails have been sent'.
    const status = await screen.findByTestId('mailing-status');
    expect(status).toHaveTextContent('Queued, 0 of 3 sent.');
    expect(status).not.toHaveTextContent(/have been sent/);
    await waitFor(() => expect(status).toHaveFocus());
    // The past mailings beside the mailer, then the progress of this one, polled until it is sent.
    expect(screen.getByRole('cell', { name: 'Spring letter' })).toBeInTheDocument();
    expect(await screen.findByText(/Sending, 1 of 3 sent/, {}, { timeout: 4000 })).toBeInTheDocument();
    expect(await screen.findByText(/Sent, 2 of 3 sent, 1 failed/, {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByTestId('mailing-progress')).toHaveAttribute('data-status', 'sent');
    await waitFor(() => expect(screen.getAllByTestId('past-mailing')).toHaveLength(2));
    const pollsWhenDone = polls;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(polls).toBe(pollsWhenDone);
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
      'GET /api/subscription/mailings/': mailingsPage([]),
      'POST /api/subscription/mailer/': json({ message: 'inputs is empty' }, 422),
      'GET /api/subscription/recipients/': { recipients: 2 },
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
