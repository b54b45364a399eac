// The confirmation links of e-mails (a newsletter sign-up, a back-in-stock alert, a review written with a
// typed address) open /confirm/{kind}?token=…; the page's button sends the token with a POST. Fetching the
// link, as mail scanners do, confirms nothing.
import { errorMessage } from '../../lib/api';
import type { AppThunk } from '../../lib/thunk';

export type ConfirmKind = 'subscription' | 'alert' | 'review';

export const CONFIRM_KINDS: readonly ConfirmKind[] = ['subscription', 'alert', 'review'];

export function isConfirmKind(kind: string | undefined): kind is ConfirmKind {
  return CONFIRM_KINDS.includes(kind as ConfirmKind);
}

export type Outcome = { ok: true; message: string } | { ok: false; message: string };

/** Presses the button: the kind's confirmation with the link's token. */
export const confirmLink =
  (kind: ConfirmKind, token: string): AppThunk<Promise<Outcome>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const body = { token };
      const { message } =
        kind === 'subscription'
          ? await api.post('/subscription/confirm/', body)
          : kind === 'alert'
            ? await api.post('/product/notify/confirm/', body)
            : await api.post('/reviews/confirm/', body);
      return { ok: true, message };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  };
