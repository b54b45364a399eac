import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { selectSiteInfo } from '../../state/site/siteSlice';
import { fakeFetch, json } from '../../testing/fakeFetch';
import { returnsPolicy } from '../../testing/fixtures';
import {
  adminReloadRequested,
  deleteAdminItem,
  fetchAdminList,
  saveAdminItem,
  saveAdminSite,
  selectAdminList,
  selectAdminSite,
  type SiteDraft,
} from './adminContentSlice';

const draft: SiteDraft = {
  name: 'Palestine Drinks',
  des: '',
  cover_des: '',
  image: [],
  Social: { facebook: '', instagram: '', x: '', tiktok: '', youtube: '' },
  discount: '10% off this week',
  vatRate: 20,
  vatNumber: '',
  companyName: 'Palestine Drinks Ltd',
  companyNumber: '12345678',
  registeredOffice: '1 Mill Yard, Leeds',
  deliveryEstimate: '2 to 4 working days',
};

describe('admin content lists', () => {
  it('go loading, then loaded; failures store the message and a retry sets the reload flag', async () => {
    const store = makeStore(undefined, { fetch: fakeFetch({ 'GET /api/policy/': [returnsPolicy], 'GET /api/link/': json({ message: 'Try later' }, 500) }).fetch });
    const loading = store.dispatch(fetchAdminList('policy'));
    expect(selectAdminList(store.getState(), 'policy').status).toBe('loading');
    await loading;
    expect(selectAdminList(store.getState(), 'policy')).toMatchObject({ status: 'loaded', items: [returnsPolicy] });
    await store.dispatch(fetchAdminList('link'));
    expect(selectAdminList(store.getState(), 'link')).toMatchObject({ status: 'failed', error: 'Try later' });
    store.dispatch(adminReloadRequested('link'));
    expect(selectAdminList(store.getState(), 'link').reload).toBe(true);
  });

  it('create posts without an _id, update puts to its _id; both set the reload flag', async () => {
    const fake = fakeFetch({ 'POST /api/about/create/': json({}, 201), 'PUT /api/about/update/a-1': {} });
    const store = makeStore(undefined, { fetch: fake.fetch });
    expect(await store.dispatch(saveAdminItem('about', { name: 'Our story', des: 'Text', image: [] }))).toBe(true);
    expect(selectAdminList(store.getState(), 'about')).toMatchObject({ reload: true, saving: false, notice: 'Created “Our story”.' });
    expect(await store.dispatch(saveAdminItem('about', { _id: 'a-1', name: 'Our story', des: 'New', image: [] }))).toBe(true);
    expect(fake.calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(['POST /api/about/create/', 'PUT /api/about/update/a-1']);
    expect(fake.calls[1]?.body).toEqual({ name: 'Our story', des: 'New', image: [] });
  });

  it("keeps the server's 422 message, which names the field", async () => {
    const store = makeStore(undefined, { fetch: fakeFetch({ 'POST /api/link/create/': json({ message: 'link must be https://... or a shop path' }, 422) }).fetch });
    expect(await store.dispatch(saveAdminItem('link', { name: 'Bad', des: '', link: 'ftp://x', image: [] }))).toBe(false);
    expect(selectAdminList(store.getState(), 'link')).toMatchObject({ saving: false, saveError: 'link must be https://... or a shop path', reload: false });
  });

  it('a delete refetches the list', async () => {
    let items = [returnsPolicy];
    const fake = fakeFetch({
      'GET /api/policy/': () => json(items),
      'DELETE /api/policy/delete/pol-returns': () => {
        items = [];
        return json({ message: 'Deleted' });
      },
    });
    const store = makeStore(undefined, { fetch: fake.fetch });
    await store.dispatch(fetchAdminList('policy'));
    await store.dispatch(deleteAdminItem('policy', returnsPolicy));
    expect(selectAdminList(store.getState(), 'policy')).toMatchObject({ status: 'loaded', items: [], notice: 'Deleted “Returns policy”.' });
    expect(fake.calls.map((c) => c.method)).toEqual(['GET', 'DELETE', 'GET']);
  });
});

describe('admin site info', () => {
  it('creates with POST /api/connect/create/ when there is no _id', async () => {
    const fake = fakeFetch({ 'POST /api/connect/create/': json({ ...draft, _id: 'main' }, 201) });
    const store = makeStore(undefined, { fetch: fake.fetch });
    expect(await store.dispatch(saveAdminSite(null, draft))).toBe(true);
    expect(fake.calls[0]?.body).toEqual(draft);
    expect(selectAdminSite(store.getState())).toMatchObject({ reload: true, notice: 'The site info is saved.' });
  });

  it('updates with PUT /api/connect/update/main, and the storefront shows the saved record at once', async () => {
    const fake = fakeFetch({ 'PUT /api/connect/update/main': { ...draft, _id: 'main' } });
    const store = makeStore(undefined, { fetch: fake.fetch });
    await store.dispatch(saveAdminSite('main', draft));
    expect(selectSiteInfo(store.getState())?.discount).toBe('10% off this week');
    // The contact fields are the contact form's: the site info's save leaves them out.
    expect(fake.calls[0]?.body).not.toHaveProperty('phone');
  });
});
