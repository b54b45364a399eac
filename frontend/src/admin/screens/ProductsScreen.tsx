// /new/uk/products: every drink in shop order with its pack, price, discount and stock; Edit and Delete
// ('do you wnat delete'); and the create/update form. The form checks the essentials before sending (name,
// pack label, price); the server checks every field and its message marks the field it names. Image names
// are the uploaded files' names, separated by commas; an existing drink also takes new pictures straight from
// the form (the server appends them to the drink and the form's list follows).
import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { DrinkImage } from '../../components/DrinkImage';
import { Field } from '../../components/Field';
import { StatusView } from '../../components/StatusView';
import ui from '../../components/ui.module.css';
import { formatMoney } from '../../lib/format';
import type { Category } from '../../types/catalog';
import styles from '../adminScreens.module.css';
import { fieldOfMessage, parseImages } from '../content/forms';
import { DeleteButton, WriteOutcome } from '../WriteOutcome';
import { PictureRemoval } from '../images/PictureRemoval';
import { PictureUpload, withNames, withoutNames } from '../images/PictureUpload';
import { UPLOAD_MODE } from '../images/upload';
import {
  adminProductsReloadRequested,
  deleteProduct,
  emptyProductForm,
  fetchAdminProducts,
  formFromProduct,
  productFormClosed,
  productFormOpened,
  saveProduct,
  selectAdminProducts,
  type ProductForm,
} from '../products/adminProductsSlice';

type TextField = Exclude<keyof ProductForm, '_id' | 'Isdefault'>;
const FIELDS: readonly TextField[] = ['name', 'qty', 'price', 'discount', 'TheNumber', 'sort', 'category', 'image', 'des', 'des2'];

/** The essentials, checked before sending; the server checks the rest. */
export function productFormErrors(form: ProductForm): Partial<Record<TextField, string>> {
  const errors: Partial<Record<TextField, string>> = {};
  if (form.name.trim().length < 3) errors.name = 'The name needs at least 3 characters';
  if (!form.qty.trim()) errors.qty = 'Give the pack label, e.g. 24 x 330ml';
  const price = Number(form.price.trim());
  if (!form.price.trim() || !Number.isFinite(price) || price <= 0) errors.price = 'The price is an amount in pounds above 0';
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
  // The drink's pictures as the server holds them: what may be removed (uploads add to it at once).
  const [saved, setSaved] = useState<string[]>(() => parseImages(initial.image));
  const [errors, setErrors] = useState<Partial<Record<TextField, string>>>({});
  const update = Boolean(form._id);
  const set = (field: TextField) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const serverField = fieldOfMessage(error, FIELDS);
  const errorFor = (field: TextField) => errors[field] ?? (serverField === field ? error : null);

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
      <Field id="product-name" label="Name" value={form.name} onChange={set('name')} error={errorFor('name')} />
      <Field id="product-qty" label="Pack label" hint="As shown on the basket line, e.g. 24 x 330ml" value={form.qty} onChange={set('qty')} error={errorFor('qty')} />
      <Field id="product-price" label="Price (£)" inputMode="decimal" value={form.price} onChange={set('price')} error={errorFor('price')} />
      <Field id="product-discount" label="Discount (% off)" inputMode="numeric" value={form.discount} onChange={set('discount')} error={errorFor('discount')} />
      <Field id="product-TheNumber" label="Units in stock" inputMode="numeric" value={form.TheNumber} onChange={set('TheNumber')} error={errorFor('TheNumber')} />
      <Field id="product-sort" label="Shop order" hint="Lower numbers come first." inputMode="numeric" value={form.sort} onChange={set('sort')} error={errorFor('sort')} />
      <label className={styles.check}>
        <input type="checkbox" checked={form.Isdefault} onChange={(e) => setForm((f) => ({ ...f, Isdefault: e.target.checked }))} /> Featured on the home
        page
      </label>
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
      <Field id="product-image" label="Images" hint="Uploaded image names, separated by commas; the first is the main one." value={form.image} onChange={set('image')} error={errorFor('image')} />
      {form._id && (
        <PictureUpload
          mode={UPLOAD_MODE.product}
          id={form._id}
          what="the drink"
          onUploaded={(names) => {
            setSaved((list) => [...list, ...names]);
            setForm((f) => ({ ...f, image: withNames(f.image, names) }));
          }}
        />
      )}
      {form._id && (
        <PictureRemoval
          mode={UPLOAD_MODE.product}
          id={form._id}
          images={saved}
          onRemoved={(keep) => {
            const gone = saved.filter((name) => !keep.includes(name));
            setSaved(keep);
            setForm((f) => ({ ...f, image: withoutNames(f.image, gone) }));
          }}
        />
      )}
      <Field id="product-des" label="Short description" value={form.des} onChange={set('des')} error={errorFor('des')} multiline rows={3} />
      <Field id="product-des2" label="Full description" value={form.des2} onChange={set('des2')} error={errorFor('des2')} multiline rows={6} />
      <div className={styles.actions}>
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

export default function ProductsScreen() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectAdminProducts);
  useEffect(() => {
    if (state.status === 'idle' || state.reload) void dispatch(fetchAdminProducts());
  }, [dispatch, state.status, state.reload]);

  const categoryName = (id: string | null | undefined) => state.categories.find((c) => c._id === id)?.name;

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
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Drink</th>
                  <th scope="col" className={styles.num}>
                    Price
                  </th>
                  <th scope="col" className={styles.num}>
                    Stock
                  </th>
                  <th scope="col">Shown</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {state.products.map((product) => (
                  <tr key={product._id} data-testid="admin-product">
                    <td>
                      <div className={styles.drink}>
                        <DrinkImage name={product.image[0]} alt="" width={48} height={48} />
                        <span>
                          <strong>{product.name}</strong>
                          <br />
                          {product.qty}
                          {categoryName(product.category) && ` · ${categoryName(product.category)}`}
                        </span>
                      </div>
                    </td>
                    <td className={styles.num}>
                      {formatMoney(product.price)}
                      {product.discount > 0 && (
                        <>
                          <br />
                          {product.discount}% off: {formatMoney(product.Discountprice)}
                        </>
                      )}
                    </td>
                    <td className={styles.num}>{product.TheNumber > 0 ? product.TheNumber : 'Sold out'}</td>
                    <td>
                      #{product.sort}
                      {product.Isdefault && ', featured'}
                    </td>
                    <td>
                      <div className={styles.actions}>
                        <button
                          type="button"
                          className={`${ui.secondary} ${styles.small}`}
                          aria-label={`Edit ${product.name}`}
                          onClick={() => dispatch(productFormOpened(formFromProduct(product)))}
                        >
                          Edit
                        </button>
                        <DeleteButton what={product.name} disabled={state.saving} onConfirmed={() => void dispatch(deleteProduct(product))} />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
