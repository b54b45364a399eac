// A fake back end for whole-app tests: the catalogue endpoints answering the fixtures.
import { fakeFetch } from './fakeFetch';
import { aboutEntry, cola, homePayload, lemon, mango, page, returnsPolicy, siteInfo, sodas, stockistsLink, whoEntry } from './fixtures';
import { layla, noor, reviewPage, reviewSummary, sami } from './reviewFixtures';

export function shopApi(overrides: Parameters<typeof fakeFetch>[0] = {}) {
  return fakeFetch({
    'GET /api/home/home/uk/': homePayload,
    'GET /api/home/drinks/hom/uk/uk/': page([mango, cola, lemon], 1, 1),
    'GET /api/product/p-mango': mango,
    'GET /api/product/p-cola': cola,
    'GET /api/product/p-lemon': lemon,
    'GET /api/home/search/uk/palestinedrinks': { comment: page([mango], 1, 1) },
    'GET /api/connect/uk/palestine/connect/': siteInfo,
    'GET /api/contact/': { phone: siteInfo.phone, email: siteInfo.email, address: '', open: siteInfo.open, close: '' },
    'GET /api/home_uk/palestine/about/show_result/': { about: [aboutEntry], whoweare: [whoEntry], connect: siteInfo },
    'GET /api/policy/': [returnsPolicy],
    'GET /api/link/': [stockistsLink],
    'GET /api/_uk_home/palestine/show/details/website/pol-returns': returnsPolicy,
    'GET /api/product/': [mango, cola, lemon],
    'GET /api/category/': [sodas],
    'GET /api/uploading/sh/': [],
    'GET /api/home/uk/review/': reviewSummary([layla, sami, noor]),
    'GET /api/home_uk/palestine/comment/reviews': reviewPage([layla, sami, noor], 1, 1),
    // The delivery terms every page names (the frame fetches them once per visit).
    'GET /api/order/payment-settings/': { publishableKey: 'pk_test_shop', jsUrl: '/_local/stripe.js', deliveryFee: 4.99, freeDeliveryFrom: 40 },
    ...overrides,
  });
}
