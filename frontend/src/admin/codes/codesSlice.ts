// Admin discount codes (/new/uk/discount): the list (GET /api/code/), the create/update form (create mode
// without _id, update mode with it) and delete. After a save or delete the reload flag is set at once, so
// the list is fetched again while the spec's success text shows (section 4: after create or update the list
// reloads, after delete it is refetched); its Return shows the list and reloads it once more.
import { createSlice, type PayloadAction, type ThunkAction, type UnknownAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { errorMessage, type Body, type Schemas } from '../../lib/api';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received, type ThunkExtra } from '../../lib/thunk';
import { BIN_DAYS } from '../confirm';

/** A discount code as the admin's list reads it. */
export type DiscountCode = Schemas['DiscountCode'];

/** What the form sends: `_id` present means update mode. */
export interface CodeForm {
  _id?: string;
  code: string;
  discount: string;
  open: boolean;
  maxUses: string;
  oncePerEmail: boolean;
  expiresOn: string;
  name: string;
  des: string;
  link: string;
  Discountprice: string;
  /** Uploaded image names, separated by commas (the spec's `image`). */
  image: string;
}

export type CodesView = 'list' | 'form' | 'done';

export interface CodesState extends Loadable {
  codes: DiscountCode[];
  view: CodesView;
  /** The form's starting values (an existing code in update mode). */
  editing: CodeForm | null;
  saving: boolean;
  /** Why the last save or delete was refused. */
  actionError: string | null;
  /** What the last save or delete did, after the spec's success text. */
  notice: string | null;
}

export const initialCodesState: CodesState = {
  ...initialLoadable,
  codes: [],
  view: 'list',
  editing: null,
  saving: false,
  actionError: null,
  notice: null,
};

export const SUCCESS_TEXT = 'The operation was completed successfully.';
export { DELETE_CONFIRM } from '../confirm';

export function emptyCodeForm(): CodeForm {
  return { code: '', discount: '', open: true, maxUses: '', oncePerEmail: false, expiresOn: '', name: '', des: '', link: '', Discountprice: '', image: '' };
}

/**
 * The rate the back end accepts: a whole number from 1 to 100 (docs/validation.md lists this beside the
 * spec's looser 'rate numeric'). Checked before sending, so a refused rate never leaves the form.
 */
export function rateAccepted(text: string): boolean {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return false;
  const rate = Number(trimmed);
  return rate >= 1 && rate <= 100;
}

const imageNames = (text: string): string[] =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

export function formFromCode(code: DiscountCode): CodeForm {
  return {
    _id: code._id,
    code: code.code,
    discount: String(code.discount),
    open: code.open,
    maxUses: code.maxUses == null ? '' : String(code.maxUses),
    oncePerEmail: code.oncePerEmail,
    expiresOn: code.expiresOn ?? '',
    name: code.name,
    des: code.des,
    link: code.link,
    Discountprice: code.Discountprice ? String(code.Discountprice) : '',
    image: (code.image ?? []).join(', '),
  };
}

/** What create and update both send: every field of the form but the code's text. */
function codeFields(form: CodeForm) {
  return {
    discount: Number(form.discount),
    open: form.open,
    maxUses: form.maxUses.trim() ? Number(form.maxUses) : null,
    oncePerEmail: form.oncePerEmail,
    expiresOn: form.expiresOn.trim() || null,
    name: form.name.trim(),
    des: form.des.trim(),
    link: form.link.trim(),
    Discountprice: form.Discountprice.trim() ? Number(form.Discountprice) : 0,
    image: imageNames(form.image),
  };
}

/** The create body: the code's text and its fields. */
export function newCodeBody(form: CodeForm): Body<'post', '/code/create/'> {
  return { code: form.code.trim(), ...codeFields(form) };
}

/**
 * The update body: the code text cannot change, so it is left out, as the document's CodeInput allows
 * (`code` is not among its required fields).
 */
export function codeUpdateBody(form: CodeForm): Body<'put', '/code/update/{_id}'> {
  return codeFields(form);
}

/** The body for create (with `code`) or update (the code text cannot change). */
export function codeBody(form: CodeForm): Body<'post', '/code/create/'> | Body<'put', '/code/update/{_id}'> {
  return form._id ? codeUpdateBody(form) : newCodeBody(form);
}

const codesSlice = createSlice({
  name: 'codes',
  initialState: initialCodesState,
  reducers: {
    codesRequested(state, _action: PayloadAction<void>) {
      state.status = 'loading';
      state.error = null;
      state.reload = false;
    },
    codesReceived(state, action: PayloadAction<Received<void, DiscountCode[]>>) {
      state.status = 'loaded';
      state.codes = action.payload.result;
    },
    codesFailed(state, action: PayloadAction<Failed<void>>) {
      state.status = 'failed';
      state.error = action.payload.message;
    },
    codesReloadRequested(state) {
      state.reload = true;
    },
    /** List to form: a new code (create mode) or an existing one (update mode). */
    codeFormOpened(state, action: PayloadAction<CodeForm | null>) {
      state.view = 'form';
      state.editing = action.payload;
      state.actionError = null;
    },
    codeFormClosed(state) {
      state.view = 'list';
      state.editing = null;
      state.actionError = null;
    },
    codeActionStarted(state) {
      state.saving = true;
      state.actionError = null;
    },
    codeActionSucceeded(state, action: PayloadAction<string>) {
      state.saving = false;
      state.view = 'done';
      state.editing = null;
      state.notice = action.payload;
      // Refetch at once: the list behind the success text is already the new one.
      state.reload = true;
    },
    codeActionFailed(state, action: PayloadAction<string>) {
      state.saving = false;
      state.actionError = action.payload;
    },
    /** 'Return' after a success: back to the list, which reloads. */
    codesReturned(state) {
      state.view = 'list';
      state.notice = null;
      state.reload = true;
    },
  },
  selectors: {
    selectCodes: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof codesSlice> {}
}

const injected = codesSlice.injectInto(rootReducer);

export const {
  codesRequested,
  codesReceived,
  codesFailed,
  codesReloadRequested,
  codeFormOpened,
  codeFormClosed,
  codeActionStarted,
  codeActionSucceeded,
  codeActionFailed,
  codesReturned,
} = codesSlice.actions;
export const { selectCodes } = injected.selectors;

export const fetchCodes = createLoader(
  { requested: codesRequested, received: codesReceived, failed: codesFailed },
  (api) => api.get('/code/'),
);

type Action = ThunkAction<Promise<boolean>, unknown, ThunkExtra, UnknownAction>;

/** What a saved code now does, in words: "SUMMER is saved: 10% off, open, used 3 times." */
export function savedNotice(code: DiscountCode, created: boolean): string {
  const uses = `used ${code.emailCount} ${code.emailCount === 1 ? 'time' : 'times'}`;
  return `${code.code} is ${created ? 'created' : 'saved'}: ${code.discount}% off, ${code.open ? 'open' : 'closed'}, ${uses}.`;
}

/** Create without _id, update with it. */
export function saveCode(form: CodeForm): Action {
  return async (dispatch, _getState, { api }) => {
    dispatch(codeActionStarted());
    try {
      const saved = form._id
        ? await api.put('/code/update/{_id}', codeUpdateBody(form), { params: { _id: form._id } })
        : await api.post('/code/create/', newCodeBody(form));
      dispatch(codeActionSucceeded(savedNotice(saved, !form._id)));
      return true;
    } catch (error) {
      dispatch(codeActionFailed(errorMessage(error)));
      return false;
    }
  };
}

export function deleteCode(code: DiscountCode): Action {
  return async (dispatch, _getState, { api }) => {
    dispatch(codeActionStarted());
    try {
      await api.delete('/code/delete/{id}', { params: { id: code._id } });
      dispatch(codeActionSucceeded(`${code.code} is deleted: it stays in the bin for ${BIN_DAYS} days, from where you can restore it.`));
      return true;
    } catch (error) {
      dispatch(codeActionFailed(errorMessage(error)));
      return false;
    }
  };
}

export default codesSlice;
