// A customer's data rights (UK GDPR): download everything the shop holds about them (and see it summed up),
// and delete the account with a code the shop e-mails (the server erases; the browser then forgets the
// session). Orders still on their way hold the erasure back: the shopper is told which.
import { userLoggedOut } from '../../state/session/authSlice';
import { errorMessage, type Schemas } from '../../lib/api';
import type { AppThunk } from '../../lib/thunk';

export type Outcome = { ok: true; message: string } | { ok: false; message: string };

/** An order an erasure waits for. */
export type WaitingOrder = Schemas['WaitingOrder'];

/** One line of the summary: how many of a kind the shop holds. */
export interface SummaryLine {
  label: string;
  count: number;
}

const SECTIONS: [keyof Schemas['DataExport'], string, string][] = [
  ['orders', 'order', 'orders'],
  ['reviews', 'review', 'reviews'],
  ['subscriptions', 'newsletter subscription', 'newsletter subscriptions'],
  ['alerts', 'back-in-stock alert', 'back-in-stock alerts'],
  ['contactMessages', 'message sent through the contact form', 'messages sent through the contact form'],
  ['discountCodes', 'discount code used', 'discount codes used'],
  ['mail', 'e-mail kept in our outbox', 'e-mails kept in our outbox'],
  ['passkeys', 'passkey', 'passkeys'],
  ['loginHistory', 'login record', 'login records'],
  ['limits', 'record of recent requests (for our limits)', 'records of recent requests (for our limits)'],
];

/** The export in words a person reads at a glance: what kinds of records, how many of each. */
export function summarise(data: Schemas['DataExport']): SummaryLine[] {
  const lines: SummaryLine[] = data.profile ? [{ label: 'your profile', count: 1 }] : [];
  for (const [key, one, many] of SECTIONS) {
    const count = Array.isArray(data[key]) ? (data[key] as unknown[]).length : 0;
    if (count > 0) lines.push({ label: count === 1 ? one : many, count });
  }
  return lines;
}

/** Fetches the export, hands it to the browser as my-data.json and answers its summary. */
export const downloadMyData =
  (): AppThunk<Promise<Outcome & { summary?: SummaryLine[] }>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const data = await api.get('/user/export/');
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = 'my-data.json';
      document.body.append(link);
      link.click();
      link.remove();
      URL.revokeObjectURL(url);
      return { ok: true, message: 'Your data is downloaded as my-data.json.', summary: summarise(data) };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  };

export const requestErasure =
  (): AppThunk<Promise<Outcome & { waiting?: WaitingOrder[] }>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const { message, waitingOrders } = await api.post('/user/erase/request/', undefined);
      return { ok: true, message, waiting: waitingOrders };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  };

/** Confirms with the code. An erasure the server could not finish in time keeps the session: the same code
 * sent again finishes it. */
export const confirmErasure =
  (code: string): AppThunk<Promise<Outcome & { finished?: boolean }>> =>
  async (dispatch, _getState, { api }) => {
    try {
      const { message, finished } = await api.post('/user/erase/confirm/', { code: code.trim() });
      if (finished) dispatch(userLoggedOut());
      return { ok: true, message, finished };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  };
