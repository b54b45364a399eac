// POST /api/code/customer/, a visitor call: no token even when signed in, and the code goes as the shopper
// typed it (the back end trims and upper-cases). Status true stores the code, otherwise its message becomes
// the error.
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { errorMessage } from '../../lib/api';
import type { ThunkExtra } from '../../lib/thunk';
import {
  discountCodeAccepted,
  discountCodeRejected,
  discountLookupStarted,
} from './discountSlice';

export function lookUpDiscountCode(code: string): ThunkAction<Promise<void>, unknown, ThunkExtra, UnknownAction> {
  return async (dispatch, _getState, { api }) => {
    dispatch(discountLookupStarted());
    try {
      const answer = await api.post('/code/customer/', { code }, { withoutToken: true });
      if (answer.status && answer.data) dispatch(discountCodeAccepted(answer.data));
      else dispatch(discountCodeRejected(answer.message || 'Try later'));
    } catch (error) {
      dispatch(discountCodeRejected(errorMessage(error)));
    }
  };
}
