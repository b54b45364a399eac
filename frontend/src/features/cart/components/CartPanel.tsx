// The basket: a modal dialog that locks the page's scroll, keeps the keyboard focus inside, closes on Escape
// (or a click beside it) and hands the focus back to whatever opened it. On a phone it fills the window; from
// 768 px it is a drawer at the side, over the dimmed page. It states the whole price before checkout: each
// line's total, delivery by the shop's own terms (GET /api/order/payment-settings/, state/site), the
// total, and how far the basket is from free delivery.
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { paths } from '../../../app/paths';
import { Icon, closeIcon } from '../../../components/Icon';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { formatMoney } from '../../../lib/format';
import { selectAppliedDiscount } from '../../../state/basket/discountSlice';
import { fetchDeliveryTerms, selectDeliveryState } from '../../../state/site/deliverySlice';
import { basketTotals } from '../basketTotals';
import { selectCartLines, type CartLine } from '../../../state/basket/cartSlice';
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

/** Goods, any applied code, delivery, the total and the way to free delivery. */
function BasketSummary({ lines }: { lines: CartLine[] }) {
  const dispatch = useAppDispatch();
  const delivery = useAppSelector(selectDeliveryState);
  const applied = useAppSelector(selectAppliedDiscount);
  useEffect(() => {
    void dispatch(fetchDeliveryTerms());
  }, [dispatch]);
  const terms = delivery.terms;
  // Until the terms arrive the goods are all the basket can say; delivery waits (never a made-up figure).
  const totals = basketTotals(lines, terms ?? { fee: 0, freeFrom: 0 }, applied?.discount ?? 0);

  return (
    <>
      <dl className={styles.figures}>
        <dt>Drinks</dt>
        <dd data-testid="cart-goods">{formatMoney(totals.goods)}</dd>
        {applied && totals.codeOff > 0 && (
          <>
            <dt>
              Code {applied.code} ({applied.discount}% off)
            </dt>
            <dd data-testid="cart-code">−{formatMoney(totals.codeOff)}</dd>
          </>
        )}
        <dt>Delivery</dt>
        <dd data-testid="cart-delivery">{terms ? (totals.delivery === 0 ? 'Free' : formatMoney(totals.delivery)) : '…'}</dd>
        <dt className={styles.total}>Total</dt>
        <dd className={`${styles.total} ${styles.totalValue}`} data-testid="cart-total" aria-live="polite">
          {terms ? formatMoney(totals.total) : '…'}
        </dd>
      </dl>
      {terms ? (
        <div className={styles.free}>
          <p id="free-delivery-note" aria-live="polite" data-testid="free-delivery">
            {totals.toFreeDelivery > 0
              ? `Add ${formatMoney(totals.toFreeDelivery)} more for free delivery.`
              : 'Your order has free delivery.'}
          </p>
          <progress
            className={styles.bar}
            aria-labelledby="free-delivery-note"
            max={Math.max(terms.freeFrom, 0.01)}
            value={Math.min(totals.counted, terms.freeFrom)}
          />
          <p className={styles.note}>
            Delivery is {formatMoney(terms.fee)}, free for orders from {formatMoney(terms.freeFrom)} after any discount code.
            {!applied && ' Discount codes go on at checkout.'}
          </p>
        </div>
      ) : (
        delivery.loading.status === 'failed' && (
          <p className={styles.note} role="status">
            We could not load the delivery charge: checkout shows it before you pay.{' '}
            <button type="button" className={styles.retry} onClick={() => void dispatch(fetchDeliveryTerms())}>
              Try again
            </button>
          </p>
        )
      )}
    </>
  );
}

export function CartPanel({ isLoggedIn, onClose }: CartPanelProps) {
  const lines = useAppSelector(selectCartLines);
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
    <>
    {/* The dimmed page beside the drawer: a click there closes the basket (Escape does too). */}
    <div className={styles.backdrop} aria-hidden="true" onClick={onClose} data-testid="cart-backdrop" />
    {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the modal dialog traps Tab inside itself, as a modal must */}
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
              <BasketSummary lines={lines} />
              <Link className={styles.checkout} to={paths.checkout.to()} onClick={onClose}>
                check out
              </Link>
            </div>
          </>
        )}
      </div>
    </div>
    </>
  );
}

export default CartPanel;
