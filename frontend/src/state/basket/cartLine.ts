// A product as a basket line (the spec's cart line shape), priced with its discount; the basket's total.
// (The total is here, not in cartSlice.ts, so the first page's script, which holds the slice, does not carry
// the pricing code.)
import { lineTotal, unitPrice } from '../../lib/price';
import type { Product } from '../../types/catalog';
import { clampQty, type CartLine, type CartState } from './cartSlice';

/** Estimated total: sum of price × qty, 2 decimals. */
export const selectCartTotal = (state: { cart: CartState }): number => lineTotal(state.cart.cartItems);

export function cartLineFromProduct(product: Product, qty = 1): CartLine {
  return {
    product: product._id,
    name: product.name,
    image: product.image[0] ?? '',
    quantity: product.qty,
    price: unitPrice(product),
    des: product.des,
    qty: clampQty(qty),
  };
}
