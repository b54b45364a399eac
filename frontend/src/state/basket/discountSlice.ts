// The discount code the shopper applied (the spec's TheDiscount). Only the applied code is persisted. The
// lookup itself lives in lookUpDiscountCode.ts, so only the checkout downloads it. A plain slice (no immer): the
// first page holds it (lib/plainSlice.ts).
import type { PayloadAction } from '@reduxjs/toolkit';
import { createPlainSlice } from '../../lib/plainSlice';
import type { Status } from '../../lib/thunk';

export interface AppliedDiscount {
  code: string;
  /** Percentage off the order. */
  discount: number;
}

export interface DiscountState {
  applied: AppliedDiscount | null;
  status: Status;
  error: string | null;
}

export const initialDiscountState: DiscountState = { applied: null, status: 'idle', error: null };

const discountSlice = createPlainSlice('discount', initialDiscountState, {
  discountLookupStarted: (state) => ({ ...state, status: 'loading' }),
  /** The code lookup answered status true: store the code and clear the error. */
  discountCodeAccepted: (state, action: PayloadAction<AppliedDiscount>) => ({
    ...state,
    applied: { code: action.payload.code, discount: action.payload.discount },
    error: null,
    status: 'loaded',
  }),
  /** The lookup answered status false (its message) or failed (the shared handler's message). */
  discountCodeRejected: (state, action: PayloadAction<string>) => ({
    ...state,
    error: action.payload,
    status: 'failed',
  }),
  discountCleared: () => initialDiscountState,
});

export const { discountLookupStarted, discountCodeAccepted, discountCodeRejected, discountCleared } =
  discountSlice.actions;
// Plain selector functions: the ones a page does not use drop out of its script.
type Root = { discount: DiscountState };
export const selectAppliedDiscount = (state: Root) => state.discount.applied;
export const selectDiscountError = (state: Root) => state.discount.error;

export default discountSlice;
