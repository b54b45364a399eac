// Admin drinks (/new/uk/products): the list (GET /api/product/, in shop order), the create/update form
// (create without _id, update with it) and delete. The server checks every field and names the one it
// refuses; a save or delete goes back to the list, which reloads. Categories come along for the form's
// select. Stock edits are safe against orders: the server's write is conditional on the version it read.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { createLoader, initialLoadable, type AppThunk, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { Body } from '../../lib/api';
import { createWrite } from '../../lib/writes';
import type { Category, Product } from '../../types/catalog';
import type { Schemas } from '../../lib/api';

/** A drink's recorded prices and whether it may show a "was" price, with the reason. */
export type PriceRecord = Schemas['PriceRecord'];

/** What the form holds: text as typed; `_id` present means update mode. */
export interface ProductForm {
  _id?: string;
  name: string;
  qty: string;
  price: string;
  discount: string;
  TheNumber: string;
  sort: string;
  Isdefault: boolean;
  category: string;
  /** The chosen pictures' names, in order: the first is the main one. */
  image: string[];
  des: string;
  des2: string;
  /** Food information: allergens marked *like this* in the ingredients. */
  ingredients: string;
  allergens: string[];
  storage: string;
  /** mg per litre; blank for a drink without added caffeine. */
  caffeineMgPerLitre: string;
  /** Per 100 ml; all blank means no declaration yet. */
  nutrition: Record<NutrientName, string>;
  /** The Annex III statements picked (high-caffeine follows the caffeine). */
  statements: string[];
  /** The discount's first and last days, `YYYY-MM-DD`; blank: from today, and until changed. */
  promotionStart: string;
  promotionEnd: string;
}

export const NUTRIENTS = ['energyKj', 'energyKcal', 'fat', 'saturates', 'carbohydrate', 'sugars', 'protein', 'salt'] as const;
export type NutrientName = (typeof NUTRIENTS)[number];

const blankNutrition = (): Record<NutrientName, string> =>
  Object.fromEntries(NUTRIENTS.map((name) => [name, ''])) as Record<NutrientName, string>;

export interface AdminProductsState extends Loadable {
  products: Product[];
  categories: Category[];
  /** Addresses waiting for each sold-out drink (back-in-stock alerts), by drink id. */
  waiting: Record<string, number>;
  view: 'list' | 'form';
  editing: ProductForm | null;
  saving: boolean;
  /** Why the last save or delete was refused, as the server worded it. */
  actionError: string | null;
  /** What the last save or delete did, for the list to say. */
  notice: string | null;
}

export const initialAdminProductsState: AdminProductsState = {
  ...initialLoadable,
  products: [],
  categories: [],
  waiting: {},
  view: 'list',
  editing: null,
  saving: false,
  actionError: null,
  notice: null,
};

export function emptyProductForm(): ProductForm {
  return {
    name: '',
    qty: '',
    price: '',
    discount: '0',
    TheNumber: '0',
    sort: '0',
    Isdefault: false,
    category: '',
    image: [],
    des: '',
    des2: '',
    ingredients: '',
    allergens: [],
    storage: '',
    caffeineMgPerLitre: '',
    nutrition: blankNutrition(),
    statements: [],
    promotionStart: '',
    promotionEnd: '',
  };
}

export function formFromProduct(product: Product): ProductForm {
  return {
    _id: product._id,
    name: product.name,
    qty: product.qty,
    price: product.price.toFixed(2),
    discount: String(product.discount),
    TheNumber: String(product.TheNumber),
    sort: String(product.sort),
    Isdefault: product.Isdefault,
    category: product.category ?? '',
    image: [...product.image],
    des: product.des,
    des2: product.des2,
    ingredients: product.ingredients,
    allergens: [...product.allergens],
    storage: product.storage,
    caffeineMgPerLitre: product.caffeineMgPerLitre == null ? '' : String(product.caffeineMgPerLitre),
    nutrition: product.nutrition
      ? (Object.fromEntries(NUTRIENTS.map((name) => [name, String(product.nutrition?.[name] ?? '')])) as Record<NutrientName, string>)
      : blankNutrition(),
    statements: (product.statements ?? []).filter((id) => id !== 'high-caffeine'),
    promotionStart: product.promotionStart ?? '',
    promotionEnd: product.promotionEnd ?? '',
  };
}

/** The declaration as sent: null when every value is blank, numbers as typed otherwise (a blank is 0). */
function nutritionBody(values: Record<NutrientName, string>) {
  if (NUTRIENTS.every((name) => values[name].trim() === '')) return null;
  const read = (name: NutrientName) => Number(values[name].trim() || '0');
  return {
    energyKj: read('energyKj'),
    energyKcal: read('energyKcal'),
    fat: read('fat'),
    saturates: read('saturates'),
    carbohydrate: read('carbohydrate'),
    sugars: read('sugars'),
    protein: read('protein'),
    salt: read('salt'),
  };
}

/** The create and update body (the document's ProductInput): numbers as typed, empty text left for the server to refuse. */
export function productBody(form: ProductForm): Body<'post', '/product/create/'> {
  const number = (text: string) => (text.trim() === '' ? text.trim() : Number(text.trim()));
  return {
    name: form.name.trim(),
    qty: form.qty.trim(),
    price: number(form.price),
    discount: number(form.discount || '0'),
    TheNumber: number(form.TheNumber || '0'),
    sort: number(form.sort || '0'),
    Isdefault: form.Isdefault,
    category: form.category,
    image: [...form.image],
    des: form.des.trim(),
    des2: form.des2.trim(),
    ingredients: form.ingredients.trim(),
    allergens: form.allergens as NonNullable<Body<'post', '/product/create/'>['allergens']>,
    storage: form.storage.trim(),
    caffeineMgPerLitre: form.caffeineMgPerLitre.trim() === '' ? null : Number(form.caffeineMgPerLitre.trim()),
    nutrition: nutritionBody(form.nutrition),
    statements: form.statements as NonNullable<Body<'post', '/product/create/'>['statements']>,
    promotionStart: form.promotionStart.trim() || null,
    promotionEnd: form.promotionEnd.trim() || null,
  };
}

/** GET /api/product/prices/{_id}: the drink's price history and why it shows a "was" price or not. */
export const fetchPriceRecord =
  (id: string): AppThunk<Promise<PriceRecord>> =>
  (_dispatch, _getState, { api }) =>
    api.get('/product/prices/{_id}', { params: { _id: id } });

export { DELETE_CONFIRM } from '../confirm';

interface Catalogue {
  products: Product[];
  categories: Category[];
  waiting: Record<string, number>;
}

const adminProductsSlice = createSlice({
  name: 'adminProducts',
  initialState: initialAdminProductsState,
  reducers: {
    adminProductsRequested(state, _action: PayloadAction<void>) {
      state.status = 'loading';
      state.error = null;
      state.reload = false;
    },
    adminProductsReceived(state, action: PayloadAction<Received<void, Catalogue>>) {
      state.status = 'loaded';
      state.products = action.payload.result.products;
      state.categories = action.payload.result.categories;
      state.waiting = action.payload.result.waiting;
    },
    adminProductsFailed(state, action: PayloadAction<Failed<void>>) {
      state.status = 'failed';
      state.error = action.payload.message;
    },
    adminProductsReloadRequested(state) {
      state.reload = true;
    },
    productFormOpened(state, action: PayloadAction<ProductForm | null>) {
      state.view = 'form';
      state.editing = action.payload;
      state.actionError = null;
      state.notice = null;
    },
    productFormClosed(state) {
      state.view = 'list';
      state.editing = null;
      state.actionError = null;
    },
    productActionStarted(state) {
      state.saving = true;
      state.actionError = null;
      state.notice = null;
    },
    productActionSucceeded(state, action: PayloadAction<string>) {
      state.saving = false;
      state.view = 'list';
      state.editing = null;
      state.notice = action.payload;
      state.reload = true;
    },
    productActionFailed(state, action: PayloadAction<string>) {
      state.saving = false;
      state.actionError = action.payload;
    },
  },
  selectors: {
    selectAdminProducts: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof adminProductsSlice> {}
}

const injected = adminProductsSlice.injectInto(rootReducer);

export const {
  adminProductsRequested,
  adminProductsReceived,
  adminProductsFailed,
  adminProductsReloadRequested,
  productFormOpened,
  productFormClosed,
  productActionStarted,
  productActionSucceeded,
  productActionFailed,
} = adminProductsSlice.actions;
export const { selectAdminProducts } = injected.selectors;

export const fetchAdminProducts = createLoader(
  { requested: adminProductsRequested, received: adminProductsReceived, failed: adminProductsFailed },
  async (api): Promise<Catalogue> => {
    // The alerts' counts are a help, not the list: without them the drinks still show.
    const [products, categories, alerts] = await Promise.all([
      api.get('/product/'),
      api.get('/category/'),
      api.get('/product/alerts/').catch(() => []),
    ]);
    return { products, categories, waiting: Object.fromEntries(alerts.map((a) => [a._id, a.waiting])) };
  },
);

const productAction = createWrite({
  started: productActionStarted,
  succeeded: productActionSucceeded,
  failed: productActionFailed,
});

/** Create without _id, update with it. */
export const saveProduct = (form: ProductForm) =>
  productAction(async (api) => {
    if (form._id) {
      const saved = await api.put('/product/update/{_id}', productBody(form), { params: { _id: form._id } });
      return `${saved.name} is saved.`;
    }
    const created = await api.post('/product/create/', productBody(form));
    return `${created.name} is added to the shop.`;
  });

export const deleteProduct = (product: Product) =>
  productAction(async (api) => {
    await api.delete('/product/delete/{_id}', { params: { _id: product._id } });
    return `${product.name} is deleted.`;
  });

export default adminProductsSlice;
