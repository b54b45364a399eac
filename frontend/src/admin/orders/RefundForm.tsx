// Refunding an order on the admin's order view (POST /api/order/refunds/{_id}): the whole of what is left,
// chosen lines (units of each, the delivery charge), or an amount, with the reason, and whether the
// returned drinks go back on sale. The figure shown is worked out as the server does (each unit at the price
// paid, the code's discount off, the delivery); the server decides, and says why when it refuses.
import { useId, useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../app/hooks';
import ui from '../../components/ui.module.css';
import { formatMoney, toPence } from '../../lib/format';
import type { Order } from '../../lib/orderTypes';
import styles from '../adminScreens.module.css';
import { refundOrder, type RefundRequest } from './adminOrdersSlice';

type Kind = 'whole' | 'lines' | 'amount';

interface RefundFormProps {
  order: Order;
  busy: boolean;
  /** After the server recorded the refund (the order view then reads the order again). */
  onRefunded: () => void;
}

/** Units of each line not refunded yet. */
export function unitsLeft(order: Order): Record<string, number> {
  const left: Record<string, number> = {};
  for (const line of order.product) left[line.product] = line.qty;
  for (const refund of order.refunds) {
    if (refund.status === 'failed') continue;
    for (const line of refund.lines) left[line.product] = (left[line.product] ?? 0) - line.qty;
  }
  return left;
}

export const deliveryRefunded = (order: Order): boolean => order.refunds.some((r) => r.status !== 'failed' && r.delivery);

/** What the chosen units (and the delivery) come to, as the server prices them, capped at what is left. */
export function linesValue(order: Order, units: Record<string, number>, delivery: boolean): number {
  let pence = 0;
  for (const line of order.product) {
    const qty = units[line.product] ?? 0;
    const value = toPence(line.price) * qty;
    // The code's percentage off, half-up to the penny, as at checkout.
    pence += value - Math.round((value * order.codeRate) / 100);
  }
  if (delivery) pence += toPence(order.shipping);
  return Math.min(pence, toPence(order.total) - toPence(order.refunded)) / 100;
}

export function RefundForm({ order, busy, onRefunded }: RefundFormProps) {
  const dispatch = useAppDispatch();
  const id = useId();
  const left = unitsLeft(order);
  const remaining = (toPence(order.total) - toPence(order.refunded)) / 100;
  const canRefundDelivery = order.shipping > 0 && !deliveryRefunded(order);
  const [kind, setKind] = useState<Kind>('whole');
  const [units, setUnits] = useState<Record<string, number>>({});
  const [delivery, setDelivery] = useState(false);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [restock, setRestock] = useState(false);

  const chosen = Object.entries(units).filter(([, qty]) => qty > 0);
  const figure =
    kind === 'whole'
      ? remaining
      : kind === 'lines'
        ? linesValue(order, units, delivery)
        : Number.isFinite(Number(amount))
          ? Number(amount)
          : 0;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    let body: RefundRequest;
    if (kind === 'whole') {
      body = {
        lines: order.product.filter((l) => (left[l.product] ?? 0) > 0).map((l) => ({ product: l.product, qty: left[l.product] ?? 0 })),
        delivery: canRefundDelivery,
        reason: reason.trim(),
        restock,
      };
    } else if (kind === 'lines') {
      body = { lines: chosen.map(([product, qty]) => ({ product, qty })), delivery, reason: reason.trim(), restock };
    } else {
      body = { lines: [], amount: Number(amount), reason: reason.trim() };
    }
    if (!window.confirm(`Refund ${formatMoney(figure)} to ${order.fullname}'s card?`)) return;
    void dispatch(refundOrder(order, body)).then((done) => {
      if (!done) return;
      setUnits({});
      setDelivery(false);
      setAmount('');
      setReason('');
      onRefunded();
    });
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} aria-labelledby={`${id}-title`} data-testid="refund-form">
      <h3 id={`${id}-title`}>Refund</h3>
      <p>
        Left to refund: <strong data-testid="refund-left">{formatMoney(remaining)}</strong>
      </p>
      <fieldset className={styles.field}>
        <legend>What to refund</legend>
        {(
          [
            ['whole', `Everything left (${formatMoney(remaining)})`],
            ['lines', 'Chosen drinks or the delivery'],
            ['amount', 'An amount'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className={styles.check}>
            <input type="radio" name={`${id}-kind`} value={value} checked={kind === value} onChange={() => setKind(value)} />
            {label}
          </label>
        ))}
      </fieldset>
      {kind === 'lines' && (
        <fieldset className={styles.field} data-testid="refund-lines">
          <legend>Units to refund</legend>
          {order.product.map((line) => {
            const max = Math.max(left[line.product] ?? 0, 0);
            return (
              <label key={line.product} className={styles.check}>
                <input
                  type="number"
                  className={styles.select}
                  min={0}
                  max={max}
                  step={1}
                  value={units[line.product] ?? 0}
                  disabled={max === 0}
                  aria-label={`Units of ${line.name} to refund, up to ${max}`}
                  onChange={(e) => setUnits({ ...units, [line.product]: Math.min(Math.max(Math.trunc(Number(e.target.value)) || 0, 0), max) })}
                />
                {line.name} at {formatMoney(line.price)} ({max} left)
              </label>
            );
          })}
          {canRefundDelivery && (
            <label className={styles.check}>
              <input type="checkbox" checked={delivery} onChange={(e) => setDelivery(e.target.checked)} />
              The delivery charge ({formatMoney(order.shipping)})
            </label>
          )}
        </fieldset>
      )}
      {kind === 'amount' && (
        <div className={styles.field}>
          <label htmlFor={`${id}-amount`}>Amount in pounds (up to {formatMoney(remaining)})</label>
          {/* Text, not number: a browser's step check on 0.01 can refuse an exact amount through binary rounding. */}
          <input
            id={`${id}-amount`}
            className={styles.select}
            inputMode="decimal"
            pattern="\d+(\.\d{1,2})?"
            title="Pounds, with at most two decimals"
            required
            value={amount}
            onChange={(e) => setAmount(e.target.value.trim())}
          />
        </div>
      )}
      {kind !== 'amount' && (
        <label className={styles.check}>
          <input type="checkbox" checked={restock} onChange={(e) => setRestock(e.target.checked)} />
          Put the refunded drinks back on sale (they came back unopened)
        </label>
      )}
      <div className={styles.field}>
        <label htmlFor={`${id}-reason`}>Reason (kept with the refund)</label>
        <input
          id={`${id}-reason`}
          className={styles.select}
          required
          maxLength={200}
          value={reason}
          placeholder="e.g. Returned unopened within 14 days"
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      <button
        type="submit"
        className={`${ui.primary} ${styles.small}`}
        disabled={busy || figure <= 0 || reason.trim() === '' || (kind === 'lines' && chosen.length === 0 && !delivery)}
      >
        Refund {formatMoney(figure)}
      </button>
    </form>
  );
}
