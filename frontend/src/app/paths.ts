// Every route string in one place: `pattern` is what the router matches (the spec's tables), `to` builds
// a link. Links use 'drinks' as the {product} segment.

export const PRODUCT_SEGMENT = 'drinks';
const p = PRODUCT_SEGMENT;

/** `path` carrying an order link's key, when there is one. */
const withKey = (path: string, key?: string | null): string =>
  key ? `${path}${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}` : path;

export const paths = {
  home: { pattern: '/', to: () => '/' },
  shop: {
    pattern: '/shop/:product/',
    to: (category?: string | null) => `/shop/${p}/${category ? `?category=${encodeURIComponent(category)}` : ''}`,
  },
  product: {
    pattern: '/:product/:id',
    to: (id: string) => `/${p}/${encodeURIComponent(id)}`,
  },
  search: {
    pattern: '/:product/uk',
    to: (query: string) => `/${p}/uk?search=${encodeURIComponent(query)}`,
  },
  /** The router cannot match half a segment: the slug's suffix is checked in pageRoutes.tsx. */
  about: { pattern: '/about/:slug', to: () => `/about/${p}-about-us` },
  login: { pattern: '/:product/login', to: () => `/${p}/login` },
  contact: { pattern: '/contact/:slug/', to: () => `/contact/${p}-contact/` },
  policy: { pattern: '/:product/policies/:id', to: (id: string) => `/${p}/policies/${encodeURIComponent(id)}` },
  reviews: { pattern: '/:product/review', to: () => `/${p}/review` },
  checkout: { pattern: '/checkout', to: () => '/checkout' },
  /** Where an e-mail's confirmation link leads: its page's button confirms (features/confirm). */
  confirm: {
    pattern: '/confirm/:kind',
    to: (kind: string, token: string) => `/confirm/${kind}?token=${encodeURIComponent(token)}`,
  },
  /**
   * An order's page. With `key` (an order link's, as its e-mails and the checkout's answer carry it) the
   * page shows the drinks, name and address without logging in; the bare id shows where the order stands.
   */
  order: { pattern: '/myorder/:id', to: (id: string, key?: string | null) => withKey(`/myorder/${encodeURIComponent(id)}`, key) },
  /**
   * The printable VAT receipt of an order (the confirmation e-mail links here), and one refund's credit note
   * on the same page (the refund e-mail links there).
   */
  receipt: {
    pattern: '/order/:id/receipt',
    to: (id: string, key?: string | null) => withKey(`/order/${encodeURIComponent(id)}/receipt`, key),
    creditNote: (id: string, refund: string, key?: string | null) =>
      withKey(`/order/${encodeURIComponent(id)}/receipt?creditNote=${encodeURIComponent(refund)}`, key),
  },
  /** Where a customer lands once their account is deleted (logged out: outside the account wrapper). */
  accountDeleted: { pattern: '/account/deleted', to: () => '/account/deleted' },
  account: {
    pattern: '/account',
    orders: { pattern: 'order', to: () => '/account/order' },
    profile: { pattern: 'profile', to: () => '/account/profile' },
  },
  admin: {
    pattern: '/new/uk',
    to: (child = '') => `/new/uk${child ? `/${child}` : ''}`,
  },
  notFound: { pattern: '*' },
} as const;

/**
 * The admin area's child routes under /new/uk/ (root is the index); admin/AdminArea.tsx must route each.
 * `users` is not in the spec's list of admin routes, which says only that a users screen exists; siteinfo,
 * policies, links and categories are not in it either: the content pages added them, and the admin's bin came later.
 */
export type AdminChild =
  | 'result'
  | 'about'
  | 'mailer'
  | 'products'
  | 'whoweare'
  | 'subscription'
  | 'reviews'
  | 'order'
  | 'show'
  | 'discount'
  | 'profile'
  | 'users'
  | 'siteinfo'
  | 'policies'
  | 'links'
  | 'categories'
  | 'bin';
