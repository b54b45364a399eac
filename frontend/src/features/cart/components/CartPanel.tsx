// The full-screen basket: a modal dialog that locks the page's scroll, keeps the keyboard focus inside,
// closes on Escape and hands the focus back to whatever opened it.
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { paths } from '../../../app/paths';
import { Icon, closeIcon } from '../../../components/Icon';
import { useAppSelector } from '../../../app/hooks';
import { formatMoney } from '../../../lib/format';
import { selectCartTotal } from '../cartLine';
import { selectCartLines } from '../cartSlice';
import { CartLineItem } from './CartLineItem';
import styles from './CartPanel.module.css';
import { Link } from '../../../components/Link';

interface CartPanelProps {
  isLoggedIn: boolean;
  onClose: () => void;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

function useScrollLock(): void {
  useEffect(() => {
    const { body } = document;
    const gap = window.innerWidth - document.documentElement.clientWidth;
    body.setAttribute('data-scroll-locked', '');
    if (gap > 0) body.style.paddingRight = `${gap}px`;
    return () => {
      body.removeAttribute('data-scroll-locked');
      body.style.paddingRight = '';
    };
  }, []);
}

export function CartPanel({ isLoggedIn, onClose }: CartPanelProps) {
  const lines = useAppSelector(selectCartLines);
  const total = useAppSelector(selectCartTotal);
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useScrollLock();

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    return () => {
      // Back to the basket button (or whatever opened the panel), if it is still on the page.
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // Escape is heard on the whole document: focus may be on nothing (the body) after a line is removed.
  useEffect(() => {
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onEscape);
    return () => document.removeEventListener('keydown', onEscape);
  }, [onClose]);

  // A removed line takes its focused button with it: bring the focus back into the panel.
  useEffect(() => {
    if (!panelRef.current?.contains(document.activeElement)) closeRef.current?.focus();
  }, [lines.length]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Tab' || !panelRef.current) return;
    const focusable = Array.from(panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div
      ref={panelRef}
      className={styles.panel}
      role="dialog"
      aria-modal="true"
      aria-labelledby="cart-title"
      id="cart-panel"
      onKeyDown={onKeyDown}
    >
      <div className={styles.inner}>
        <div className={styles.top}>
          <h2 id="cart-title" className={styles.title}>
            Your basket
          </h2>
          <button ref={closeRef} type="button" className={styles.close} aria-label="Close basket" onClick={onClose}>
            <Icon d={closeIcon} size={20} width={2.5} />
          </button>
        </div>

        {lines.length === 0 ? (
          <div className={styles.empty}>
            <p className={styles.emptyTitle}>Your cart is empty</p>
            <Link className={styles.continue} to={paths.shop.to()} onClick={onClose}>
              Continue shopping
            </Link>
            {!isLoggedIn && (
              <p className={styles.account}>
                Have an account ?{' '}
                <Link to={paths.login.to()} onClick={onClose}>
                  log in
                </Link>
              </p>
            )}
          </div>
        ) : (
          <>
            <ul className={styles.lines} aria-label="Basket items">
              {lines.map((line) => (
                <CartLineItem key={line.product} line={line} />
              ))}
            </ul>
            <div className={styles.summary}>
              <p className={styles.total}>
                <span>Estimated total</span>
                <span className={styles.totalValue} data-testid="cart-total" aria-live="polite">
                  {formatMoney(total)}
                </span>
              </p>
              <p className={styles.note}>Shipping and discount codes are worked out at checkout.</p>
              <Link className={styles.checkout} to={paths.checkout.to()} onClick={onClose}>
                check out
              </Link>
            </div>
          </>
        )}
      </div>
    </div>
  );
}

export default CartPanel;
