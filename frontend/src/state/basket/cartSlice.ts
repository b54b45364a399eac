// The basket (the spec's AddCart): lines and the delivery address. Persisted, so a reload keeps it. A plain
// slice (no immer): the first page holds it (lib/plainSlice.ts).
import type { PayloadAction } from '@reduxjs/toolkit';
import { createPlainSlice } from '../../lib/plainSlice';

export interface CartLine {
  /** The product's id. */
  product: string;
  name: string;
  /** The first upload name of the product. */
  image: string;
  /** The pack label, e.g. "24 x 330ml". */
  quantity: string;
  /** Pounds per unit: the discounted price when the product has a discount. */
  price: number;
  des: string;
  /** How many; a whole number from 1. */
  qty: number;
}

export interface CartAddress {
  fullname?: string;
  address?: string;
  phone?: string;
  email?: string;
  message?: string;
}

export interface CartState {
  cartItems: CartLine[];
  address: CartAddress;
}

export const MIN_QTY = 1;

/** A quantity the basket accepts: a whole number, at least 1. */
export function clampQty(qty: unknown): number {
  const n = typeof qty === 'number' ? qty : Number(qty);
  return Number.isFinite(n) ? Math.max(MIN_QTY, Math.floor(n)) : MIN_QTY;
}

export const initialCartState: CartState = { cartItems: [], address: {} };

const cartSlice = createPlainSlice('cart', initialCartState, {
  /** Adding a product already in the basket replaces its line; otherwise the line is appended. */
  cartLineAdded: (state, action: PayloadAction<CartLine>) => {
    const line = { ...action.payload, qty: clampQty(action.payload.qty) };
    const index = state.cartItems.findIndex((item) => item.product === line.product);
    const cartItems =
      index === -1 ? [...state.cartItems, line] : state.cartItems.map((item, at) => (at === index ? line : item));
    return { ...state, cartItems };
  },
  cartLineRemoved: (state, action: PayloadAction<string>) => ({
    ...state,
    cartItems: state.cartItems.filter((item) => item.product !== action.payload),
  }),
  cartCleaned: (state) => ({ ...state, cartItems: [] }),
  cartAddressSaved: (state, action: PayloadAction<CartAddress>) => ({ ...state, address: action.payload }),
});

export const { cartLineAdded, cartLineRemoved, cartCleaned, cartAddressSaved } = cartSlice.actions;

// Plain selector functions: the ones a page does not use drop out of its script.
type Root = { cart: CartState };
export const selectCartLines = (state: Root) => state.cart.cartItems;
/** The badge: the cases in the basket (two of one drink are "2 items"), as a shopper counts them. */
export const selectCartCount = (state: Root) => state.cart.cartItems.reduce((n, line) => n + line.qty, 0);
export const selectCartAddress = (state: Root) => state.cart.address;

export default cartSlice;
