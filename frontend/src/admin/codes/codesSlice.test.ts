import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, json } from '../../testing/fakeFetch';
import {
  codeBody,
  codeFormClosed,
  codeFormOpened,
  codesReturned,
  emptyCodeForm,
  fetchCodes,
  saveCode,
  selectCodes,
} from './codesSlice';

describe('discount codes slice', () => {
  it('create mode (no _id) sends the code text; update mode (with _id) does not', () => {
    expect(codeBody({ ...emptyCodeForm(), code: ' winter ', discount: '15', maxUses: '3' })).toMatchObject({
      code: 'winter',
      discount: 15,
      maxUses: 3,
      expiresOn: null,
    });
    expect(codeBody({ ...emptyCodeForm(), _id: 'WINTER', code: 'WINTER', discount: '20' })).not.toHaveProperty('code');
  });

  it('goes list → form → done, and Return sets the reload flag and shows the list', async () => {
    const fake = fakeFetch({ 'POST /api/code/create/': json({}, 201), 'GET /api/code/': [] });
    const store = makeStore(undefined, { fetch: fake.fetch });
    await store.dispatch(fetchCodes());
    expect(selectCodes(store.getState())).toMatchObject({ status: 'loaded', view: 'list' });
    store.dispatch(codeFormOpened(null));
    expect(selectCodes(store.getState()).view).toBe('form');
    expect(await store.dispatch(saveCode({ ...emptyCodeForm(), code: 'NEW', discount: '10' }))).toBe(true);
    expect(selectCodes(store.getState())).toMatchObject({ view: 'done', saving: false });
    store.dispatch(codesReturned());
    expect(selectCodes(store.getState())).toMatchObject({ view: 'list', reload: true });
  });

  it("keeps the form open with the server's message when a save is refused", async () => {
    const fake = fakeFetch({ 'POST /api/code/create/': json({ message: 'This code already exists' }, 409) });
    const store = makeStore(undefined, { fetch: fake.fetch });
    store.dispatch(codeFormOpened(null));
    expect(await store.dispatch(saveCode({ ...emptyCodeForm(), code: 'DUP', discount: '10' }))).toBe(false);
    expect(selectCodes(store.getState())).toMatchObject({ view: 'form', actionError: 'This code already exists' });
    store.dispatch(codeFormClosed());
    expect(selectCodes(store.getState())).toMatchObject({ view: 'list', actionError: null });
  });
});
