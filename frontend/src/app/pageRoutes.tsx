// Every route in the spec's tables except Home and the admin area (see router.tsx): public pages, the
// account wrapper with its children, and the page for unknown paths. Each screen is its own lazily loaded chunk.
import type { ReactNode } from 'react';
import { Route, Routes, useParams } from 'react-router';
import { selectIsLoggedIn } from '../features/auth/authSlice';
import { lazyPage } from '../lib/chunks';
import { useAppSelector } from './hooks';
import { paths } from './paths';
import { Redirect, ToLogin } from './routes/redirects';
import { NotFoundPage } from './routes/NotFoundPage';

const ShopPage = lazyPage(() => import('../features/shop/components/ShopPage'));
const SearchPage = lazyPage(() => import('../features/search/components/SearchPage'));
const AboutPage = lazyPage(() => import('../features/content/components/AboutPage'));
const ContactPage = lazyPage(() => import('../features/content/components/ContactPage'));
const PolicyPage = lazyPage(() => import('../features/content/components/PolicyPage'));
const LoginPage = lazyPage(() => import('../features/auth/components/LoginPage'));
const ReviewsPage = lazyPage(() => import('../features/reviews/components/ReviewsPage'));
const CheckoutPage = lazyPage(() => import('../features/checkout/components/CheckoutPage'));
const OrderPage = lazyPage(() => import('../features/order/components/OrderPage'));
const ReceiptPage = lazyPage(() => import('../features/order/components/ReceiptPage'));
const AccountLayout = lazyPage(() => import('../features/account/components/AccountLayout'));
const AccountOrdersPage = lazyPage(() => import('../features/account/components/AccountOrdersPage'));
const AccountProfilePage = lazyPage(() => import('../features/account/components/AccountProfilePage'));

const ProductRoute = lazyPage(() => import('./routes/ProductRoute'));

/** The account wrapper is reached when logged in; otherwise it points to the login page. */
function RequireLogin({ children }: { children: ReactNode }) {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  return isLoggedIn ? children : <ToLogin />;
}

/**
 * The spec's /about/{product}-about-us and /contact/{product}-contact/: react-router matches whole segments
 * only, so the segment's suffix (and a non-empty {product} before it) is checked here; any other slug is an
 * unknown path (app/knownPaths.json says the same to the gateway and CloudFront).
 */
function WhenSlugEndsWith({ suffix, children }: { suffix: string; children: ReactNode }) {
  const { slug = '' } = useParams();
  return slug.length > suffix.length && slug.endsWith(suffix) ? children : <NotFoundPage />;
}

export default function PageRoutes() {
  return (
    <Routes>
        <Route path={paths.shop.pattern} element={<ShopPage />} />
        <Route path={paths.search.pattern} element={<SearchPage />} />
        <Route path={paths.login.pattern} element={<LoginPage />} />
        <Route path={paths.reviews.pattern} element={<ReviewsPage />} />
        <Route path={paths.policy.pattern} element={<PolicyPage />} />
        <Route path={paths.product.pattern} element={<ProductRoute />} />
        <Route
          path={paths.about.pattern}
          element={
            <WhenSlugEndsWith suffix="-about-us">
              <AboutPage />
            </WhenSlugEndsWith>
          }
        />
        <Route
          path={paths.contact.pattern}
          element={
            <WhenSlugEndsWith suffix="-contact">
              <ContactPage />
            </WhenSlugEndsWith>
          }
        />
        <Route path={paths.checkout.pattern} element={<CheckoutPage />} />
        <Route path={paths.order.pattern} element={<OrderPage />} />
        <Route path={paths.receipt.pattern} element={<ReceiptPage />} />
        <Route
          path={paths.account.pattern}
          element={
            <RequireLogin>
              <AccountLayout />
            </RequireLogin>
          }
        >
          <Route index element={<Redirect to={paths.account.orders.to()} />} />
          <Route path={paths.account.orders.pattern} element={<AccountOrdersPage />} />
          <Route path={paths.account.profile.pattern} element={<AccountProfilePage />} />
        </Route>
        {/* The spec has unknown paths render Home; issue 22 asks for a real 404 page instead. */}
        <Route path={paths.notFound.pattern} element={<NotFoundPage />} />
    </Routes>
  );
}
