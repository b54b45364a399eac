// "Buy again": a past order's drinks back in the basket, each at today's price and as many as are in stock
// (up to what was ordered); a drink no longer sold or sold out is named instead of added.
import { cartLineAdded } from '../../state/basket/cartSlice';
import { cartLineFromProduct } from '../../state/basket/cartLine';
import { ApiError } from '../../lib/api';
import type { AppThunk } from '../../lib/thunk';
import type { Order } from '../../lib/orderTypes';

export interface BuyAgainOutcome {
  added: string[];
  /** Drinks that could not be added, with why: "Mango Fizz (sold out)". */
  missed: string[];
}

export const buyAgain =
  (order: Order): AppThunk<Promise<BuyAgainOutcome>> =>
  async (dispatch, _getState, { api }) => {
    const outcome: BuyAgainOutcome = { added: [], missed: [] };
    for (const line of order.product) {
      try {
        const product = await api.get('/product/{_id}', { params: { _id: line.product } });
        if (product.TheNumber <= 0) {
          outcome.missed.push(`${line.name} (sold out)`);
          continue;
        }
        dispatch(cartLineAdded(cartLineFromProduct(product, Math.min(line.qty, product.TheNumber))));
        outcome.added.push(product.name);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) outcome.missed.push(`${line.name} (no longer sold)`);
        else outcome.missed.push(`${line.name} (could not be checked: try again)`);
      }
    }
    return outcome;
  };
