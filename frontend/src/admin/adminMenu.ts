// The admin area's screens as its menu lists them: the child path under /new/uk/ (the spec's admin routes,
// and those the content and users issues added) and the menu's text, which is also the screen's title.
export const ADMIN_MENU: ReadonlyArray<{ child: string; label: string }> = [
  { child: '', label: 'Dashboard' },
  { child: 'result', label: 'Sales results' },
  { child: 'order', label: 'Orders' },
  { child: 'products', label: 'Products' },
  { child: 'show', label: 'Images' },
  { child: 'discount', label: 'Discount codes' },
  { child: 'reviews', label: 'Reviews' },
  { child: 'subscription', label: 'Subscriptions' },
  { child: 'mailer', label: 'Mailer' },
  { child: 'about', label: 'About text' },
  { child: 'whoweare', label: 'Who we are' },
  { child: 'siteinfo', label: 'Site info' },
  { child: 'policies', label: 'Policies' },
  { child: 'links', label: 'Link entries' },
  { child: 'categories', label: 'Categories' },
  { child: 'users', label: 'Users' },
  { child: 'bin', label: 'Bin' },
  { child: 'profile', label: 'Profile' },
];

/** Screens shown only with the auth state's showsubscription flag. */
export const SUBSCRIPTION_SCREENS: ReadonlySet<string> = new Set(['subscription', 'mailer']);

/**
 * The menu text of the screen at `pathname` when it is one of the menu's own screens (/new/uk/users); null
 * for a deeper path (/new/uk/order/{id}), whose screen names itself. An unknown child shows the dashboard.
 */
export function menuScreenOf(pathname: string): string | null {
  const rest = pathname.replace(/^\/new\/uk\/?/, '').replace(/\/$/, '');
  if (rest.includes('/')) return null;
  return ADMIN_MENU.find((item) => item.child === rest)?.label ?? 'Dashboard';
}
