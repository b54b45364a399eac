// A returning customer's delivery details: the checkout fills what the shopper has not typed from the
// profile, and from the last order where the profile has none; "save these details" puts them on the profile
// after a successful order, so the next checkout (and the profile page) has them. An address kept in one box
// (saved before the checkout asked for its parts) cannot be split back reliably: it is offered as it is, for
// the shopper to copy into the parts.
import { userInfoUpdated } from '../../state/session/authSlice';
import type { AppThunk } from '../../lib/thunk';

export interface AddressParts {
  addressLine1: string;
  addressLine2: string;
  town: string;
  postcode: string;
}

export interface SavedDetails extends AddressParts {
  fullname: string;
  phone: string;
  /** An address saved in one box only, shown beside the parts; empty when the parts are known. */
  oneBoxAddress: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The parts a profile or an order holds (empty strings where it has none). */
export function addressParts(from: { addressLine1?: unknown; addressLine2?: unknown; town?: unknown; postcode?: unknown }): AddressParts {
  return {
    addressLine1: text(from.addressLine1),
    addressLine2: text(from.addressLine2),
    town: text(from.town),
    postcode: text(from.postcode),
  };
}

const complete = (details: SavedDetails): boolean =>
  Boolean(details.fullname && details.phone && (details.postcode || details.oneBoxAddress));

/** The details to offer, or null when they cannot be read (the form stays as it is). */
export const loadSavedDetails =
  (): AppThunk<Promise<SavedDetails | null>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const profile = await api.get('/user/profile/');
      const parts = addressParts(profile);
      const details: SavedDetails = {
        fullname: text(profile.fullname),
        phone: text(profile.phone),
        ...parts,
        oneBoxAddress: parts.postcode ? '' : text(profile.address),
      };
      if (complete(details)) return details;
      const page = await api.get('/order/orderdetails/customer/order/', { query: { pageNumber: 1 } });
      const last = page.product[0];
      if (!last) return details;
      const lastParts = addressParts(last);
      const useLast = !details.postcode && !details.oneBoxAddress;
      return {
        fullname: details.fullname || last.fullname,
        phone: details.phone || text(last.phone),
        ...(useLast ? lastParts : parts),
        oneBoxAddress: useLast ? (lastParts.postcode ? '' : last.address) : details.oneBoxAddress,
      };
    } catch {
      return null;
    }
  };

/** Keeps the details on the profile; a refusal changes nothing and is not the shopper's problem now. */
export const saveDetails =
  (details: { fullname: string; phone: string } & AddressParts): AppThunk<Promise<boolean>> =>
  async (dispatch, _getState, { api }) => {
    try {
      const saved = await api.put('/user/profile/', details);
      dispatch(userInfoUpdated(saved));
      return true;
    } catch {
      return false;
    }
  };
