// /new/uk/products: every drink in the shared admin table (sort, filter by text, stock and the day it was
// added, CSV), in shop order at first, with its pack, price, discount and stock; Edit and Delete
// ('do you wnat delete'); and the create/update form, in sections (basics, price and promotion, stock, food
// information, pictures) with its Save always in view. The form checks the essentials before sending (name,
// pack label, price); the server checks every field and its message marks the field it names. Pictures are
// picked from the gallery or uploaded in place (ImagePicker), new drink or not; a saved drink's pictures can
// also be deleted from storage (PictureRemoval).
import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { DrinkImage } from '../../components/DrinkImage';
import { Field } from '../../components/Field';
import { StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { formatMoney } from '../../lib/format';
import type { Category, Product } from '../../types/catalog';
import { AdminTable, type Column } from '../table/AdminTable';
import type { CsvColumn, TableModel } from '../table/tableQuery';
import { LOW_STOCK, stockLevel } from './stock';
import styles from '../adminScreens.module.css';
import { fieldOfMessage } from '../content/forms';
import { DeleteButton, WriteOutcome } from '../WriteOutcome';
import { PictureRemoval } from '../images/PictureRemoval';
import { ImagePicker } from '../images/ImagePicker';
import { UPLOAD_MODE } from '../images/upload';
import {
  adminProductsReloadRequested,
  deleteProduct,
  emptyProductForm,
  fetchAdminProducts,
  formFromProduct,
  NUTRIENTS,
  productFormClosed,
  productFormOpened,
  saveProduct,
  selectAdminProducts,
  type NutrientName,
  type ProductForm,
} from './adminProductsSlice';
import { ALLERGEN_LABELS, ALLERGENS, PICKABLE_STATEMENTS, STATEMENTS } from '../../lib/food';
import { PriceHistory } from './PriceHistory';

type TextField = Exclude<keyof ProductForm, '_id' | 'Isdefault' | 'allergens' | 'nutrition' | 'image' | 'statements'>;
type FormField = TextField | NutrientName | 'allergens' | 'image' | 'statements';
const FIELDS: readonly FormField[] = [
  'name',
  'qty',
  'price',
  'discount',
  'promotionStart',
  'promotionEnd',
  'TheNumber',
  'sort',
  'category',
  'image',
  'des',
  'des2',
  'ingredients',
  'allergens',
  'statements',
  'storage',
  'caffeineMgPerLitre',
  ...NUTRIENTS,
];

const NUTRIENT_LABELS: Record<NutrientName, string> = {
  energyKj: 'Energy (kJ)',
  energyKcal: 'Energy (kcal)',
  fat: 'Fat (g)',
  saturates: 'of which saturates (g)',
  carbohydrate: 'Carbohydrate (g)',
  sugars: 'of which sugars (g)',
  protein: 'Protein (g)',
  salt: 'Salt (g)',
};

/** The essentials and the food information's sums, checked before sending; the server checks the rest. */
export function productFormErrors(form: ProductForm): Partial<Record<FormField, string>> {
  const errors: Partial<Record<FormField, string>> = {};
  if (form.name.trim().length < 3) errors.name = 'The name needs at least 3 characters';
  if (!form.qty.trim()) errors.qty = 'Give the pack label, e.g. 24 x 330ml';
  const price = Number(form.price.trim());
  if (!form.price.trim() || !Number.isFinite(price) || price <= 0) errors.price = 'The price is an amount in pounds above 0';
  const value = (name: NutrientName) => Number(form.nutrition[name].trim() || '0');
  for (const name of NUTRIENTS) {
    const n = value(name);
    if (!Number.isFinite(n) || n < 0) errors[name] = 'A number from 0 up';
  }
  if (!errors.saturates && !errors.fat && value('saturates') > value('fat')) errors.saturates = 'Saturates are part of the fat: at most the fat';
  if (!errors.sugars && !errors.carbohydrate && value('sugars') > value('carbohydrate'))
    errors.sugars = 'Sugars are part of the carbohydrate: at most the carbohydrate';
  const start = form.promotionStart.trim();
  const end = form.promotionEnd.trim();
  if (start && end && end < start) errors.promotionEnd = 'The last day cannot be before the first';
  const caffeine = form.caffeineMgPerLitre.trim();
  if (caffeine && !(Number.isInteger(Number(caffeine)) && Number(caffeine) >= 0)) errors.caffeineMgPerLitre = 'A whole number of mg per litre, or blank';
  return errors;
}

interface ProductFormViewProps {
  initial: ProductForm;
  categories: Category[];
  saving: boolean;
  error: string | null;
}

export function ProductFormView({ initial, categories, saving, error }: ProductFormViewProps) {
  const dispatch = useAppDispatch();
  const [form, setForm] = useState<ProductForm>(initial);
  // The drink's pictures as the server holds them: what may be deleted from storage.
  const [saved, setSaved] = useState<string[]>(() => [...initial.image]);
  const [errors, setErrors] = useState<Partial<Record<FormField, string>>>({});
  const update = Boolean(form._id);
  const set = (field: TextField) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const setNutrient = (name: NutrientName) => (value: string) => setForm((f) => ({ ...f, nutrition: { ...f.nutrition, [name]: value } }));
  const toggleAllergen = (allergen: string, on: boolean) =>
    setForm((f) => ({ ...f, allergens: on ? [...f.allergens, allergen] : f.allergens.filter((a) => a !== allergen) }));
  const toggleStatement = (id: string, on: boolean) =>
    setForm((f) => ({ ...f, statements: on ? [...f.statements, id] : f.statements.filter((s) => s !== id) }));
  // The server names a nutrient as nutrition.sugars.
  const serverField = fieldOfMessage(error?.replace(/^nutrition\./, '') ?? null, FIELDS);
  const errorFor = (field: FormField) => errors[field] ?? (serverField === field ? error : null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = productFormErrors(form);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      document.getElementById(`product-${first}`)?.focus();
      return;
    }
    if (!saving) void dispatch(saveProduct(form));
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label={update ? `Edit ${initial.name}` : 'New drink'}>
      <h3>{update ? `Edit ${initial.name}` : 'New drink'}</h3>
      {error && !serverField && (
        <p className={styles.alert} role="alert">
          {error}
        </p>
      )}
      <fieldset className={styles.section}>
        <legend>Basics</legend>
        <Field id="product-name" label="Name" value={form.name} onChange={set('name')} error={errorFor('name')} />
        <Field id="product-qty" label="Pack label" hint="As shown on the basket line, e.g. 24 x 330ml" value={form.qty} onChange={set('qty')} error={errorFor('qty')} />
        <div className={styles.field}>
          <label htmlFor="product-category">Category</label>
          <select id="product-category" className={styles.select} value={form.category} onChange={(e) => set('category')(e.target.value)}>
            <option value="">No category</option>
            {categories.map((category) => (
              <option key={category._id} value={category._id}>
                {category.name}
              </option>
            ))}
          </select>
          {serverField === 'category' && (
            <p className={styles.alert} role="alert">
              {error}
            </p>
          )}
        </div>
        <Field id="product-des" label="Short description" value={form.des} onChange={set('des')} error={errorFor('des')} multiline rows={3} />
        <Field id="product-des2" label="Full description" value={form.des2} onChange={set('des2')} error={errorFor('des2')} multiline rows={6} />
        <Field id="product-sort" label="Shop order" hint="Lower numbers come first." inputMode="numeric" value={form.sort} onChange={set('sort')} error={errorFor('sort')} />
        <label className={styles.check}>
          <input type="checkbox" checked={form.Isdefault} onChange={(e) => setForm((f) => ({ ...f, Isdefault: e.target.checked }))} /> Featured on the home
          page
        </label>
      </fieldset>
      <fieldset className={styles.section}>
        <legend>Price and promotion</legend>
        <Field id="product-price" label="Price (£)" inputMode="decimal" value={form.price} onChange={set('price')} error={errorFor('price')} />
        <Field id="product-discount" label="Discount (% off)" inputMode="numeric" value={form.discount} onChange={set('discount')} error={errorFor('discount')} />
        <fieldset className={styles.field}>
          <legend>Promotion days</legend>
          <p>
            A discount runs from its first day to its last, both included. Without a first day it starts the day you save; without a last day it
            runs until you change it.
          </p>
          <Field id="product-promotionStart" label="First day" type="date" value={form.promotionStart} onChange={set('promotionStart')} error={errorFor('promotionStart')} />
          <Field id="product-promotionEnd" label="Last day" type="date" value={form.promotionEnd} onChange={set('promotionEnd')} error={errorFor('promotionEnd')} />
        </fieldset>
        {form._id && <PriceHistory id={form._id} />}
      </fieldset>
      <fieldset className={styles.section}>
        <legend>Stock</legend>
        <Field id="product-TheNumber" label="Units in stock" inputMode="numeric" value={form.TheNumber} onChange={set('TheNumber')} error={errorFor('TheNumber')} />
      </fieldset>
      <fieldset className={styles.section}>
        <legend>Food information</legend>
        <Field
          id="product-ingredients"
          label="Ingredients"
          hint="In descending order of weight; mark allergens with stars, e.g. *barley* malt, so they print in bold."
          value={form.ingredients}
          onChange={set('ingredients')}
          error={errorFor('ingredients')}
          multiline
          rows={3}
        />
        <fieldset className={styles.field} aria-describedby={errorFor('allergens') ? 'product-allergens-error' : undefined}>
          <legend>Allergens it contains</legend>
          {ALLERGENS.map((allergen) => (
            <label key={allergen} className={styles.check}>
              <input type="checkbox" checked={form.allergens.includes(allergen)} onChange={(e) => toggleAllergen(allergen, e.target.checked)} />{' '}
              {ALLERGEN_LABELS[allergen]}
            </label>
          ))}
          {errorFor('allergens') && (
            <p id="product-allergens-error" className={styles.alert} role="alert">
              {errorFor('allergens')}
            </p>
          )}
        </fieldset>
        <fieldset className={styles.field} aria-describedby={errorFor('statements') ? 'product-statements-error' : undefined}>
          <legend>Label statements</legend>
          <p>What the label must say (shown beside the drink's name). The high-caffeine warning follows the caffeine below.</p>
          {PICKABLE_STATEMENTS.map((id) => (
            <label key={id} className={styles.check}>
              <input type="checkbox" checked={form.statements.includes(id)} onChange={(e) => toggleStatement(id, e.target.checked)} />{' '}
              {STATEMENTS[id]?.text}
            </label>
          ))}
          {errorFor('statements') && (
            <p id="product-statements-error" className={styles.alert} role="alert">
              {errorFor('statements')}
            </p>
          )}
        </fieldset>
        <p>Nutrition per 100 ml (leave all blank until you have the declaration):</p>
        {NUTRIENTS.map((name) => (
          <Field
            key={name}
            id={`product-${name}`}
            label={NUTRIENT_LABELS[name]}
            inputMode="decimal"
            value={form.nutrition[name]}
            onChange={setNutrient(name)}
            error={errorFor(name)}
          />
        ))}
        <Field
          id="product-caffeineMgPerLitre"
          label="Caffeine (mg per litre)"
          hint="Blank for none added. Over 150 shows the high-caffeine warning."
          inputMode="numeric"
          value={form.caffeineMgPerLitre}
          onChange={set('caffeineMgPerLitre')}
          error={errorFor('caffeineMgPerLitre')}
        />
        <Field id="product-storage" label="Storage" value={form.storage} onChange={set('storage')} error={errorFor('storage')} />
      </fieldset>
      <fieldset className={styles.section}>
        <legend>Pictures</legend>
        <ImagePicker
          label="Images"
          hint="The first is the main one."
          value={form.image}
          onChange={(image) => setForm((f) => ({ ...f, image }))}
          error={errorFor('image')}
        />
        {form._id && (
          <PictureRemoval
            mode={UPLOAD_MODE.product}
            id={form._id}
            images={saved}
            onRemoved={(keep) => {
              const gone = saved.filter((name) => !keep.includes(name));
              setSaved(keep);
              setForm((f) => ({ ...f, image: f.image.filter((name) => !gone.includes(name)) }));
            }}
          />
        )}
      </fieldset>
      {/* Save stays in view at the bottom of the window however long the form is. */}
      <div className={`${styles.actions} ${styles.stickyActions}`}>
        <button type="submit" className={ui.primary} aria-disabled={saving}>
          {saving ? 'Saving…' : update ? 'Save' : 'Add drink'}
        </button>
        <button type="button" className={ui.secondary} onClick={() => dispatch(productFormClosed())}>
          Cancel
        </button>
      </div>
    </form>
  );
}

const STOCK_FILTERS = [
  { value: 'in stock', label: 'In stock' },
  { value: 'low', label: `Running low (${LOW_STOCK} or fewer)` },
  { value: 'sold out', label: 'Sold out' },
  { value: 'featured', label: 'Featured' },
  { value: 'waiting', label: 'Shoppers waiting for stock' },
];

type CategoryName = (id: string | null | undefined) => string | undefined;

export function productModel(categoryName: CategoryName, waiting: Record<string, number>): TableModel<Product> {
  return {
    sortBy: {
      drink: (p) => p.name,
      price: (p) => p.Discountprice,
      stock: (p) => p.TheNumber,
      shown: (p) => p.sort,
    },
    text: (p) => [p.name, p.qty, categoryName(p.category), p._id],
    status: (p) => [stockLevel(p), ...(p.Isdefault ? ['featured'] : []), ...((waiting[p._id] ?? 0) > 0 ? ['waiting'] : [])],
    date: (p) => p.createdAt,
  };
}

export function productCsv(categoryName: CategoryName, waiting: Record<string, number>): CsvColumn<Product>[] {
  return [
    { label: 'Id', value: (p) => p._id },
    { label: 'Name', value: (p) => p.name },
    { label: 'Pack', value: (p) => p.qty },
    { label: 'Category', value: (p) => categoryName(p.category) ?? '' },
    { label: 'Price', value: (p) => p.price },
    { label: 'Discount %', value: (p) => p.discount },
    { label: 'Price after discount', value: (p) => p.Discountprice },
    { label: 'Stock', value: (p) => p.TheNumber },
    { label: 'Waiting for stock', value: (p) => waiting[p._id] ?? 0 },
    { label: 'Sort', value: (p) => p.sort },
    { label: 'Featured', value: (p) => (p.Isdefault ? 'yes' : 'no') },
    { label: 'Added', value: (p) => p.createdAt },
  ];
}

export default function ProductsScreen() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectAdminProducts);
  useEffect(() => {
    if (state.status === 'idle' || state.reload) void dispatch(fetchAdminProducts());
  }, [dispatch, state.status, state.reload]);

  const categoryName = (id: string | null | undefined) => state.categories.find((c) => c._id === id)?.name;
  const productColumns: Column<Product>[] = [
    {
      key: 'drink',
      label: 'Drink',
      cell: (product) => (
        <div className={styles.drink}>
          <DrinkImage name={product.image[0]} alt="" width={48} height={48} />
          <span>
            <strong>{product.name}</strong>
            <br />
            {product.qty}
            {categoryName(product.category) && ` · ${categoryName(product.category)}`}
          </span>
        </div>
      ),
    },
    {
      key: 'price',
      label: 'Price',
      num: true,
      cell: (product) => (
        <>
          {formatMoney(product.price)}
          {product.discount > 0 && (
            <>
              <br />
              {product.discount}% off: {formatMoney(product.Discountprice)}
            </>
          )}
        </>
      ),
    },
    {
      key: 'stock',
      label: 'Stock',
      num: true,
      cell: (product) => (
        <>
          {product.TheNumber > 0 ? product.TheNumber : 'Sold out'}
          {(state.waiting[product._id] ?? 0) > 0 && (
            <>
              <br />
              <small data-testid="waiting-count">{state.waiting[product._id]} waiting</small>
            </>
          )}
        </>
      ),
    },
    {
      key: 'shown',
      label: 'Shown',
      cell: (product) => (
        <>
          #{product.sort}
          {product.Isdefault && ', featured'}
        </>
      ),
    },
    {
      key: 'actions',
      label: 'Actions',
      cell: (product) => (
        <div className={styles.actions}>
          <button
            type="button"
            className={`${ui.secondary} ${styles.small}`}
            aria-label={`Edit ${product.name}`}
            onClick={() => dispatch(productFormOpened(formFromProduct(product)))}
          >
            Edit
          </button>
          <DeleteButton what={product.name} binned disabled={state.saving} onConfirmed={() => void dispatch(deleteProduct(product))} />
        </div>
      ),
    },
  ];

  let body;
  if (state.view === 'form') {
    const initial = state.editing ?? emptyProductForm();
    body = <ProductFormView key={initial._id ?? 'new'} initial={initial} categories={state.categories} saving={state.saving} error={state.actionError} />;
  } else {
    body = (
      <>
        <p>
          <button type="button" className={ui.primary} onClick={() => dispatch(productFormOpened(null))}>
            New drink
          </button>
        </p>
        <WriteOutcome notice={state.notice} error={state.actionError} />
        <StatusView
          status={state.status}
          error={state.error}
          onRetry={() => dispatch(adminProductsReloadRequested())}
          isEmpty={state.products.length === 0}
          loadingLabel="Loading the drinks"
          errorTitle="We could not load the drinks"
          empty={<p>No drinks yet: add the first one.</p>}
        >
          <AdminTable
            rows={state.products}
            model={productModel(categoryName, state.waiting)}
            columns={productColumns}
            rowKey={(p) => p._id}
            filters={{
              text: 'Search by name, pack or category',
              status: { label: 'Stock', options: STOCK_FILTERS },
              date: 'Added',
            }}
            csv={{ fileName: 'drinks.csv', columns: productCsv(categoryName, state.waiting) }}
            noun="drinks"
            caption="Drinks"
            rowTestId="admin-product"
          />
        </StatusView>
      </>
    );
  }

  return (
    <section className={styles.screen} aria-labelledby="products-title">
      <h2 id="products-title" className={ui.sectionTitle}>
        Products
      </h2>
      {body}
    </section>
  );
}
