// A fake back end for whole-app tests: the catalogue endpoints answering the fixtures.
import { fakeFetch } from './fakeFetch';
import { cola, homePayload, lemon, mango, page, siteInfo } from './fixtures';

export function shopApi(overrides: Parameters<typeof fakeFetch>[0] = {}) {
  return fakeFetch({
    'GET /api/home/home/uk/': homePayload,
    'GET /api/home/drinks/hom/uk/uk/': page([mango, cola, lemon], 1, 1),
    'GET /api/product/p-mango': mango,
    'GET /api/product/p-cola': cola,
    'GET /api/product/p-lemon': lemon,
    'GET /api/home/search/uk/palestinedrinks': { comment: page([mango], 1, 1) },
    'GET /api/connect/uk/palestine/connect/': siteInfo,
    'GET /api/home_uk/palestine/about/show_result/': { about: [{ _id: 'a-1', name: 'Our story', des: 'Since 2020' }], whoweare: [], connect: siteInfo },
    ...overrides,
  });
}
