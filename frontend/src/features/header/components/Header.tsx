// The page header: the official-store banner (in the page flow, so it shows only at the top), and the
// sticky navbar that hides on the way down and returns on the way up, with the logo, the links (behind a
// burger on small screens), the account link and the basket button with its badge.
import { useLocation } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { SITE_NAME } from '../../../lib/brand';
import { cartPanelToggled, menuClosed, menuToggled, selectCartOpen, selectMenuOpen } from '../../../state/header/headerSlice';
import { useHideOnScroll } from '../useHideOnScroll';
import styles from './Header.module.css';
import { Link } from '../../../components/Link';

interface HeaderProps {
  /** Number of cases in the basket, shown on the badge. */
  cartCount: number;
  isLoggedIn: boolean;
  /** The shopper is about to open the basket (pointer over or focus on its button): warm it up. */
  onBasketIntent?: () => void;
}

const LINKS = [
  { to: paths.shop.to(), label: 'Shop' },
  { to: paths.about.to(), label: 'About us' },
  { to: paths.reviews.to(), label: 'Reviews' },
  { to: paths.contact.to(), label: 'Contact' },
];

function Logo() {
  const [first, ...rest] = SITE_NAME.split(' ');
  return (
    <Link to={paths.home.to()} className={styles.logo} aria-label={`${SITE_NAME} home`}>
      <img src="/logo.svg" width="30" height="36" alt="" />
      <span className={styles.logoText}>
        {first} <span className={styles.logoAccent}>{rest.join(' ')}</span>
      </span>
    </Link>
  );
}

export function Header({ cartCount, isLoggedIn, onBasketIntent }: HeaderProps) {
  const dispatch = useAppDispatch();
  const menuOpen = useAppSelector(selectMenuOpen);
  const cartOpen = useAppSelector(selectCartOpen);
  const hidden = useHideOnScroll(menuOpen || cartOpen);
  const { pathname } = useLocation();
  const basketLabel = `Basket, ${cartCount} ${cartCount === 1 ? 'item' : 'items'}`;

  return (
    <>
      <div className={styles.banner} data-testid="store-banner">
        <p className={styles.bannerText}>
          The official online store of {SITE_NAME} · <strong>UK-wide delivery</strong>
        </p>
      </div>
      <header className={styles.header} data-hidden={hidden} data-testid="navbar">
        <div className={styles.bar}>
          <Logo />
          <nav id="main-nav" className={styles.nav} aria-label="Main" data-open={menuOpen}>
            <ul className={styles.links}>
              {LINKS.map((link) => (
                <li key={link.to}>
                  <Link
                    className={styles.link}
                    to={link.to}
                    aria-current={pathname === link.to ? 'page' : undefined}
                    onClick={() => dispatch(menuClosed())}
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className={styles.actions}>
            <Link
              className={styles.icon}
              to={paths.search.to('')}
              aria-label="Search drinks"
              onClick={() => dispatch(menuClosed())}
            >
              <span className={styles.searchGlyph} aria-hidden="true" />
            </Link>
            <Link
              className={styles.icon}
              to={isLoggedIn ? paths.account.orders.to() : paths.login.to()}
              aria-label={isLoggedIn ? 'Your account' : 'Log in'}
              onClick={() => dispatch(menuClosed())}
            >
              <span className={styles.accountGlyph} aria-hidden="true" />
            </Link>
            <button
              type="button"
              className={styles.icon}
              aria-label={basketLabel}
              aria-haspopup="dialog"
              aria-expanded={cartOpen}
              aria-controls="cart-panel"
              data-testid="basket-button"
              onPointerEnter={onBasketIntent}
              onFocus={onBasketIntent}
              onTouchStart={onBasketIntent}
              onClick={() => dispatch(cartPanelToggled())}
            >
              <span className={styles.basketGlyph} aria-hidden="true" />
              {cartCount > 0 && (
                <span className={styles.badge} data-testid="basket-badge" aria-hidden="true">
                  {cartCount}
                </span>
              )}
            </button>
            <button
              type="button"
              className={styles.burger}
              aria-label="Menu"
              aria-expanded={menuOpen}
              aria-controls="main-nav"
              onClick={() => dispatch(menuToggled())}
            >
              <span className={menuOpen ? styles.closeGlyph : styles.menuGlyph} aria-hidden="true" />
            </button>
          </div>
        </div>
      </header>
    </>
  );
}
