import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, json } from '../../testing/fakeFetch';
import { returnsPolicy } from '../../testing/fixtures';
import { feedbackReset, fetchPolicy, policyReloadRequested, selectFeedback, selectPolicy, sendFeedback } from './contentSlice';

const POLICY = '/api/_uk_home/palestine/show/details/website/pol-returns';
const FEEDBACK = '/api/_uk_home/palestine/feedback/send/only/';
const form = { fullname: '  Layla Haddad ', email: ' Layla@Example.com ', phone: '07700 900123', message: ' Do you deliver to Leeds? ' };

describe('policy', () => {
  it('goes loading, then loaded with the entry for its id', async () => {
    const store = makeStore(undefined, { fetch: fakeFetch({ [`GET ${POLICY}`]: returnsPolicy }).fetch });
    const loading = store.dispatch(fetchPolicy('pol-returns'));
    expect(selectPolicy(store.getState())).toMatchObject({ status: 'loading', id: 'pol-returns', entry: null });
    await loading;
    expect(selectPolicy(store.getState())).toMatchObject({ status: 'loaded', entry: returnsPolicy, reload: false });
  });

  it('stores the server message on failure; a retry sets the reload flag', async () => {
    const store = makeStore(undefined, { fetch: fakeFetch({ [`GET ${POLICY}`]: json({ message: 'Policy not found' }, 404) }).fetch });
    await store.dispatch(fetchPolicy('pol-returns'));
    expect(selectPolicy(store.getState())).toMatchObject({ status: 'failed', error: 'Policy not found' });
    store.dispatch(policyReloadRequested());
    expect(selectPolicy(store.getState()).reload).toBe(true);
  });

  it('ignores an answer for a policy the shopper already left', async () => {
    let answer: (r: Response) => void = () => undefined;
    const fake = fakeFetch({
      [`GET ${POLICY}`]: () => new Promise<Response>((resolve) => (answer = resolve)),
      'GET /api/_uk_home/palestine/show/details/website/pol-other': { ...returnsPolicy, _id: 'pol-other', name: 'Privacy' },
    });
    const store = makeStore(undefined, { fetch: fake.fetch });
    const first = store.dispatch(fetchPolicy('pol-returns'));
    await store.dispatch(fetchPolicy('pol-other'));
    answer(json(returnsPolicy));
    await first;
    expect(selectPolicy(store.getState()).entry?.name).toBe('Privacy');
  });
});

describe('feedback', () => {
  it('sends the trimmed form, e-mail in lower case, and keeps the server message with the reload flag', async () => {
    const fake = fakeFetch({
      [`POST ${FEEDBACK}`]: json({ _id: 'f1', message: 'Thank you: we reply within 24 hours on business days (Monday to Friday).' }, 201),
    });
    const store = makeStore(undefined, { fetch: fake.fetch });
    const sending = store.dispatch(sendFeedback(form));
    expect(selectFeedback(store.getState()).status).toBe('loading');
    await sending;
    expect(fake.calls[0]?.body).toEqual({ fullname: 'Layla Haddad', email: 'layla@example.com', phone: '07700 900123', message: 'Do you deliver to Leeds?' });
    expect(selectFeedback(store.getState())).toEqual({
      status: 'loaded',
      error: null,
      reload: true,
      message: 'Thank you: we reply within 24 hours on business days (Monday to Friday).',
    });
    store.dispatch(feedbackReset());
    expect(selectFeedback(store.getState()).status).toBe('idle');
  });

  it.each([
    [429, 'You have sent several messages already'],
    [422, 'phone must be at least 10 digits'],
  ])('a %i stores the server message', async (status, message) => {
    const store = makeStore(undefined, { fetch: fakeFetch({ [`POST ${FEEDBACK}`]: json({ message }, status) }).fetch });
    await store.dispatch(sendFeedback(form));
    expect(selectFeedback(store.getState())).toMatchObject({ status: 'failed', error: message, reload: false });
  });
});
