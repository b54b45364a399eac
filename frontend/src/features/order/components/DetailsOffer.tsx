// On "Your orders": a customer whose profile lacks a name, phone or address, and who has an order that has
// them (a guest order placed before the account existed, found by the same e-mail address), is offered those
// details for the profile. A guest who asked at the order confirmation to save them ("Save these details",
// CreateAccount.tsx, beside this file) arrives here with `?save={order id}` and has them saved at
// once. Either way the ending is announced and takes the focus.
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { fieldStyles } from '../../../components/Field';
import ui from '../../../components/ui.module.css';
import type { AppThunk } from '../../../lib/thunk';
import { selectUserInfo, type UserInfo } from '../../../state/session/authSlice';
import { selectOrderHistory } from '../orderSlice';
import { isProgressOnly, orderReference, type Order } from '../../../lib/orderTypes';
import { PROFILE_FIELDS, saveProfile, type ProfileChanges } from '../../../state/session/profileSlice';
import styles from '../../../components/ProfileForm.module.css';

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** What makes a profile's or an order's delivery details whole (a second street line is optional). */
const REQUIRED = ['fullname', 'phone', 'addressLine1', 'town', 'postcode'] as const;
const ADDRESS_PARTS = ['addressLine1', 'addressLine2', 'town', 'postcode'] as const;

/**
 * The order's name, phone and UK address parts, each where the profile has none (all of them with `replace`).
 * The address's parts go together: the profile's when it has a postcode, else the order's. An order placed
 * before addresses had parts holds one box only: then that box is what the profile keeps.
 */
export function detailsFrom(order: Order, profile: UserInfo | null, replace = false): ProfileChanges & { address?: string } {
  const keep = (field: (typeof PROFILE_FIELDS)[number]) => (!replace && text(profile?.[field])) || text(order[field]);
  const address = !replace && text(profile?.postcode) ? profile : order;
  const parts = Object.fromEntries(ADDRESS_PARTS.map((field) => [field, text(address?.[field])])) as Record<(typeof ADDRESS_PARTS)[number], string>;
  const details = { fullname: keep('fullname'), phone: keep('phone'), ...parts };
  const oneBox = text(order.address);
  return address === order && !parts.postcode && oneBox ? { ...details, address: oneBox } : details;
}

const hasAll = (details: Partial<Record<(typeof PROFILE_FIELDS)[number], unknown>> | null) => REQUIRED.every((field) => text(details?.[field]) !== '');

/** The address's parts on one line, as the offer shows them. */
const oneLine = (details: ProfileChanges) =>
  ADDRESS_PARTS.map((field) => details[field])
    .filter(Boolean)
    .join(', ');

/** The order as its owner sees it, or null when it is not theirs (then the answer has no e-mail) or gone. */
const ownOrder =
  (id: string): AppThunk<Promise<Order | null>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      const order = await api.get('/order/Orderdetails/{id}', { params: { id } });
      return !isProgressOnly(order) && order.email ? order : null;
    } catch {
      return null;
    }
  };

type Outcome = { ok: boolean; message: string };

export function DetailsOffer() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUserInfo);
  const history = useAppSelector(selectOrderHistory);
  const [params, setParams] = useSearchParams();
  const saveFrom = params.get('save');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const [busy, setBusy] = useState(false);
  const said = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (outcome) said.current?.focus();
  }, [outcome]);

  // Asked for at the confirmation: save that order's details, once, then drop the request from the address.
  useEffect(() => {
    if (!saveFrom) return;
    let live = true;
    void (async () => {
      const order = await dispatch(ownOrder(saveFrom));
      if (!live) return;
      if (!order) {
        setOutcome({ ok: false, message: 'That order was placed with another e-mail address, so its details were not saved to this account.' });
      } else {
        const saved = await dispatch(saveProfile(detailsFrom(order, null, true)));
        if (!live) return;
        setOutcome(
          saved
            ? { ok: true, message: `Your details from order ${orderReference(order)} are saved to your profile, ready for your next order.` }
            : { ok: false, message: 'Your details could not be saved: add them on your profile page.' },
        );
      }
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.delete('save');
        return next;
      }, { replace: true });
    })();
    return () => {
      live = false;
    };
  }, [dispatch, saveFrom, setParams]);

  if (outcome) {
    return (
      <p ref={said} className={outcome.ok ? fieldStyles.notice : fieldStyles.alert} role={outcome.ok ? 'status' : 'alert'} tabIndex={-1} data-testid="details-outcome">
        {outcome.message}
      </p>
    );
  }
  const source = history.products.find((order) => hasAll(order));
  if (saveFrom || dismissed || !source || hasAll(user)) return null;
  const offered = detailsFrom(source, user);

  const save = async () => {
    setBusy(true);
    const saved = await dispatch(saveProfile(offered));
    setBusy(false);
    setOutcome(
      saved
        ? { ok: true, message: 'Your details are saved to your profile, ready for your next order.' }
        : { ok: false, message: 'Your details could not be saved: try again from your profile page.' },
    );
  };

  return (
    <section className={styles.offer} aria-labelledby="details-offer-title" data-testid="details-offer">
      <h2 id="details-offer-title" className={ui.sectionTitle}>
        Use the details from order {orderReference(source)}?
      </h2>
      <p>Your profile has no delivery details yet. Save these, and the checkout fills them in for you:</p>
      <dl className={styles.facts}>
        <div>
          <dt>Name</dt>
          <dd>{offered.fullname}</dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd>{offered.phone}</dd>
        </div>
        <div>
          <dt>Address</dt>
          <dd>{oneLine(offered)}</dd>
        </div>
      </dl>
      <p className={fieldStyles.actions}>
        <button type="button" className={ui.primary} disabled={busy} onClick={() => void save()}>
          Save these details
        </button>
        <button type="button" className={ui.secondary} onClick={() => setDismissed(true)}>
          Not now
        </button>
      </p>
    </section>
  );
}
