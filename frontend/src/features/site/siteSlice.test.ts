import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, offlineFetch } from '../../testing/fakeFetch';
import { fetchSitePart, selectSiteInfo, selectSiteState } from './siteSlice';

const info = { _id: 's1', name: 'The Shop', email: 'hello@example.com', phone: '0113 496 0000' };

describe('site info and about', () => {
  it('loads each part once: not again while held', async () => {
    const fake = fakeFetch({
      'GET /api/connect/uk/palestine/connect/': info,
      'GET /api/home_uk/palestine/about/show_result/': {
        about: [{ _id: 'a1', name: 'Our story', des: 'Since 2020' }],
        whoweare: [{ _id: 'w1', name: 'Who we are', des: 'A family firm' }],
        connect: info,
      },
    });
    const store = makeStore(undefined, { fetch: fake.fetch });
    await Promise.all([store.dispatch(fetchSitePart('info')), store.dispatch(fetchSitePart('about'))]);
    await store.dispatch(fetchSitePart('info'));
    await store.dispatch(fetchSitePart('about'));
    expect(fake.calls).toHaveLength(2);
    expect(selectSiteInfo(store.getState())).toEqual(info);
    expect(selectSiteState(store.getState()).about).toEqual([{ _id: 'a1', name: 'Our story', des: 'Since 2020' }]);
    expect(selectSiteState(store.getState()).whoweare[0]?.name).toBe('Who we are');
  });

  it('takes the site info from the about answer when the info itself is not in', async () => {
    const fake = fakeFetch({ 'GET /api/home_uk/palestine/about/show_result/': { about: [], whoweare: [], connect: info } });
    const store = makeStore(undefined, { fetch: fake.fetch });
    await store.dispatch(fetchSitePart('about'));
    expect(selectSiteInfo(store.getState())?.name).toBe('The Shop');
  });

  it('asks again on the next page after a failure', async () => {
    const store = makeStore(undefined, { fetch: offlineFetch });
    await store.dispatch(fetchSitePart('info'));
    expect(selectSiteState(store.getState()).loading.info).toMatchObject({ status: 'failed', error: 'not fund 404' });
    const fake = fakeFetch({ 'GET /api/connect/uk/palestine/connect/': info });
    const online = makeStore(store.getState(), { fetch: fake.fetch });
    await online.dispatch(fetchSitePart('info'));
    expect(fake.calls).toHaveLength(1);
    expect(selectSiteState(online.getState()).loading.info.status).toBe('loaded');
  });
});
