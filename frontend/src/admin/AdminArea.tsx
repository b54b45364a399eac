// The admin area under /new/uk/: its wrapper and every child route, each screen its own lazily loaded chunk.
// The app's router loads this module only for an admin, so no admin code reaches a shopper.
import { Route, Routes } from 'react-router';
import type { AdminChild } from '../app/paths';
import { lazyPage } from '../lib/chunks';
import AdminLayout from './AdminLayout';

const screens = {
  result: lazyPage(() => import('./results/ResultScreen')),
  about: lazyPage(() => import('./content/AboutScreen')),
  mailer: lazyPage(() => import('./subscription/MailerScreen')),
  products: lazyPage(() => import('./products/ProductsScreen')),
  whoweare: lazyPage(() => import('./content/WhoweareScreen')),
  subscription: lazyPage(() => import('./subscription/SubscriptionScreen')),
  reviews: lazyPage(() => import('./reviews/ReviewsScreen')),
  order: lazyPage(() => import('./orders/OrderScreen')),
  show: lazyPage(() => import('./images/ShowScreen')),
  discount: lazyPage(() => import('./codes/DiscountScreen')),
  profile: lazyPage(() => import('./profile/ProfileScreen')),
  users: lazyPage(() => import('./users/UsersScreen')),
  siteinfo: lazyPage(() => import('./content/SiteInfoScreen')),
  policies: lazyPage(() => import('./content/PoliciesScreen')),
  links: lazyPage(() => import('./content/LinksScreen')),
  categories: lazyPage(() => import('./content/CategoriesScreen')),
  bin: lazyPage(() => import('./bin/BinScreen')),
} satisfies Record<AdminChild, unknown>; // a child missing here fails the type check
const AdminHome = lazyPage(() => import('./dashboard/AdminHome'));
const AdminOrderScreen = lazyPage(() => import('./orders/AdminOrderScreen'));

export default function AdminArea() {
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<AdminHome />} />
        {Object.entries(screens).map(([child, Screen]) => (
          <Route key={child} path={child} element={<Screen />} />
        ))}
        <Route path="order/:id" element={<AdminOrderScreen />} />
        {/* An unknown admin path shows the admin home rather than nothing. */}
        <Route path="*" element={<AdminHome />} />
      </Route>
    </Routes>
  );
}
