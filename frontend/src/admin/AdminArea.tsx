// The admin area under /new/uk/: its wrapper and every child route, each screen its own lazily loaded chunk.
// The app's router loads this module only for an admin, so no admin code reaches a shopper.
import { Route, Routes } from 'react-router';
import type { AdminChild } from '../app/paths';
import { lazyPage } from '../lib/chunks';
import AdminLayout from './AdminLayout';

const screens = {
  result: lazyPage(() => import('./screens/ResultScreen')),
  about: lazyPage(() => import('./screens/AboutScreen')),
  mailer: lazyPage(() => import('./screens/MailerScreen')),
  products: lazyPage(() => import('./screens/ProductsScreen')),
  whoweare: lazyPage(() => import('./screens/WhoweareScreen')),
  subscription: lazyPage(() => import('./screens/SubscriptionScreen')),
  reviews: lazyPage(() => import('./screens/ReviewsScreen')),
  order: lazyPage(() => import('./screens/OrderScreen')),
  show: lazyPage(() => import('./screens/ShowScreen')),
  discount: lazyPage(() => import('./screens/DiscountScreen')),
  profile: lazyPage(() => import('./screens/ProfileScreen')),
  users: lazyPage(() => import('./screens/UsersScreen')),
  siteinfo: lazyPage(() => import('./screens/SiteInfoScreen')),
  policies: lazyPage(() => import('./screens/PoliciesScreen')),
  links: lazyPage(() => import('./screens/LinksScreen')),
  categories: lazyPage(() => import('./screens/CategoriesScreen')),
  bin: lazyPage(() => import('./screens/BinScreen')),
} satisfies Record<AdminChild, unknown>; // a child missing here fails the type check
const AdminHome = lazyPage(() => import('./screens/AdminHome'));
const AdminOrderScreen = lazyPage(() => import('./screens/AdminOrderScreen'));

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
