// A returning customer's delivery details: the checkout fills what the shopper has not typed from the
// profile, and from the last order where the profile has none; "save these details" puts them on the profile
// after a successful order, so the next checkout (and the profile page) has them.
import { userInfoUpdated } from '../auth/authSlice';
import type { AppThunk } from '../../lib/thunk';

export interface SavedDetails {
  fullname: string;
  phone: string;
  address: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The details to offer, or null when they cannot be read (the form stays as it is). */
export const loadSavedDetails =
  (): AppThunk<Promise<SavedDetails | null>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const profile = await api.get('/user/profile/');
      const details = { fullname: text(profile.fullname), phone: text(profile.phone), address: text(profile.address) };
      if (details.fullname && details.phone && details.address) return details;
      const page = await api.get('/order/orderdetails/customer/order/', { query: { pageNumber: 1 } });
      const last = page.product[0];
      if (!last) return details;
      return {
        fullname: details.fullname || last.fullname,
        phone: details.phone || text(last.phone),
        address: details.address || last.address,
      };
    } catch {
      return null;
    }
  };

/** Keeps the details on the profile; a refusal changes nothing and is not the shopper's problem now. */
export const saveDetails =
  (details: SavedDetails): AppThunk<Promise<boolean>> =>
  async (dispatch, _getState, { api }) => {
    try {
      const saved = await api.put('/user/profile/', details);
      dispatch(userInfoUpdated(saved));
      return true;
    } catch {
      return false;
    }
  };
