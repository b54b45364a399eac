// What the basket says before checkout (DMCC Act 2024: no drip pricing): the goods, any code already
// applied, delivery by the shop's own terms (the charge below the free-delivery threshold, judged after the
// code, as the server prices an order), the total, and how far the basket is from free delivery.
import { toPence } from '../../lib/format';
import { lineTotal } from '../../lib/price';
import type { DeliveryTerms } from '../../state/site/deliverySlice';

export interface BasketTotals {
  /** The lines' sum, pounds. */
  goods: number;
  /** Pounds off for an applied code (0 without one). */
  codeOff: number;
  delivery: number;
  total: number;
  /** Pounds more (after the code) the basket needs for free delivery; 0 once it has it. */
  toFreeDelivery: number;
  /** The basket's value after the code, pounds: how far along the free-delivery bar it is. */
  counted: number;
}

export function basketTotals(
  lines: ReadonlyArray<{ price: number; qty: number }>,
  terms: DeliveryTerms,
  codeRate = 0,
): BasketTotals {
  const goods = toPence(lineTotal(lines));
  const rate = Math.min(Math.max(codeRate, 0), 100);
  // Half-up to the penny, the code's share off the goods.
  const counted = Math.floor((goods * (100 - rate) + 50) / 100);
  const threshold = toPence(terms.freeFrom);
  const free = goods === 0 || counted >= threshold;
  const delivery = free ? 0 : toPence(terms.fee);
  return {
    goods: goods / 100,
    codeOff: (goods - counted) / 100,
    delivery: delivery / 100,
    total: (counted + delivery) / 100,
    toFreeDelivery: free ? 0 : (threshold - counted) / 100,
    counted: counted / 100,
  };
}
