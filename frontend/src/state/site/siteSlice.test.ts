import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, offlineFetch } from '../../testing/fakeFetch';
import { aboutEntry, makeSiteInfo, returnsPolicy, stockistsLink, whoEntry } from '../../testing/fixtures';
import { fetchSiteList, selectLinks, selectPolicies, selectSiteLists, siteListReloadRequested } from './siteListsSlice';
import {
  fetchSitePart,
  selectSiteInfo,
  selectSiteState,
  siteInfoSaved,
} from './siteSlice';

const info = makeSiteInfo({ _id: 'main', name: 'The Shop', email: 'hello@example.com', phone: '0113 496 0000' });

const api = () =>
  fakeFetch({
    'GET /api/connect/uk/palestine/connect/': info,
    'GET /api/home_uk/palestine/about/show_result/': { about: [aboutEntry], whoweare: [whoEntry], connect: info },
    'GET /api/policy/': [returnsPolicy],
    'GET /api/link/': [stockistsLink],
  });

describe('site info, about, policies and links', () => {
  it('loads each part once: not again while held', async () => {
    const fake = api();
    const store = makeStore(undefined, { fetch: fake.fetch });
    const parts = ['info', 'about'] as const;
    const lists = ['policies', 'links'] as const;
    for (let round = 0; round < 2; round += 1) {
      await Promise.all([
        ...parts.map((part) => store.dispatch(fetchSitePart(part))),
        ...lists.map((list) => store.dispatch(fetchSiteList(list))),
      ]);
    }
    expect(fake.calls).toHaveLength(4);
    expect(selectSiteInfo(store.getState())).toEqual(info);
    expect(selectSiteState(store.getState()).about).toEqual([aboutEntry]);
    expect(selectSiteState(store.getState()).whoweare).toEqual([whoEntry]);
    expect(selectPolicies(store.getState())).toEqual([returnsPolicy]);
    expect(selectLinks(store.getState())).toEqual([stockistsLink]);
  });

  it('goes loading, then loaded', async () => {
    const store = makeStore(undefined, { fetch: api().fetch });
    const loading = store.dispatch(fetchSiteList('policies'));
    expect(selectSiteLists(store.getState()).loading.policies.status).toBe('loading');
    await loading;
    expect(selectSiteLists(store.getState()).loading.policies).toEqual({ status: 'loaded', error: null, reload: false });
  });

  it('stores a failure, and asks again on the next page', async () => {
    const store = makeStore(undefined, { fetch: offlineFetch });
    await store.dispatch(fetchSitePart('info'));
    expect(selectSiteState(store.getState()).loading.info).toMatchObject({ status: 'failed', error: 'not fund 404' });
    const fake = api();
    const online = makeStore(store.getState(), { fetch: fake.fetch });
    await online.dispatch(fetchSitePart('info'));
    expect(fake.calls).toHaveLength(1);
    expect(selectSiteState(online.getState()).loading.info.status).toBe('loaded');
  });

  it('a reload request makes a held part fetch again', async () => {
    const fake = api();
    const store = makeStore(undefined, { fetch: fake.fetch });
    await store.dispatch(fetchSiteList('policies'));
    store.dispatch(siteListReloadRequested('policies'));
    expect(selectSiteLists(store.getState()).loading.policies).toEqual({ status: 'idle', error: null, reload: true });
    await store.dispatch(fetchSiteList('policies'));
    expect(fake.calls).toHaveLength(2);
  });

  it('an admin save replaces the held site info without a call', () => {
    const fake = api();
    const store = makeStore(undefined, { fetch: fake.fetch });
    store.dispatch(siteInfoSaved({ ...info, phone: '0113 496 9999' }));
    expect(selectSiteInfo(store.getState())?.phone).toBe('0113 496 9999');
    expect(selectSiteState(store.getState()).loading.info.status).toBe('loaded');
    expect(fake.calls).toHaveLength(0);
  });
});
