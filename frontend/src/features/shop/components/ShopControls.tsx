// The shop's order and filters. Each change is a new address (pushed, so back undoes it): the order, the
// category and 'In stock only' apply at once, the price range when 'Apply' is pressed (typing is not a choice).
import { useEffect, useState, type FormEvent } from 'react';
import type { Category, SortOrder } from '../../../types/catalog';
import ui from '../../../components/ui.module.css';
import { isPrice, SORT_LABELS, type ShopChoice } from '../browse';
import styles from './ShopControls.module.css';

interface ShopControlsProps {
  choice: ShopChoice;
  categories: Category[];
  onChange: (choice: ShopChoice) => void;
}

/**
 * The choice as the controls show it: follows the address, and takes a change at once, before the router's
 * navigation commits (a controlled control would otherwise spring back for that moment).
 */
function useShown(choice: ShopChoice): [ShopChoice, (next: ShopChoice) => void] {
  const [shown, setShown] = useState(choice);
  useEffect(() => setShown(choice), [choice]);
  return [shown, setShown];
}

export function ShopControls({ choice: addressed, categories, onChange }: ShopControlsProps) {
  const [choice, setShown] = useShown(addressed);
  const change = (patch: Partial<ShopChoice>) => {
    const next = { ...choice, ...patch };
    setShown(next);
    onChange(next);
  };
  const unknownCategory = choice.category !== null && !categories.some((c) => c._id === choice.category);
  return (
    <div className={styles.controls} role="group" aria-label="Sort and filter the drinks">
      <label className={styles.field}>
        <span>Sort by</span>
        <select value={choice.sort} onChange={(e) => change({ sort: e.target.value as SortOrder })}>
          {(Object.keys(SORT_LABELS) as SortOrder[]).map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </label>
      <label className={styles.field}>
        <span>Category</span>
        <select value={choice.category ?? ''} onChange={(e) => change({ category: e.target.value || null })}>
          <option value="">All drinks</option>
          {categories.map((category) => (
            <option key={category._id} value={category._id}>
              {category.name}
            </option>
          ))}
          {unknownCategory && <option value={choice.category ?? ''}>This category</option>}
        </select>
      </label>
      <label className={styles.check}>
        <input type="checkbox" checked={choice.inStock} onChange={(e) => change({ inStock: e.target.checked })} />
        <span>In stock only</span>
      </label>
      {/* Remounted when the address changes, so back/forward shows the range the address holds. */}
      <PriceRange key={`${choice.minPrice ?? ''}-${choice.maxPrice ?? ''}`} choice={choice} onApply={change} />
    </div>
  );
}

function PriceRange({ choice, onApply }: { choice: ShopChoice; onApply: (patch: Partial<ShopChoice>) => void }) {
  const [min, setMin] = useState(choice.minPrice ?? '');
  const [max, setMax] = useState(choice.maxPrice ?? '');
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const low = min.trim();
    const high = max.trim();
    if ((low && !isPrice(low)) || (high && !isPrice(high))) {
      setError('Enter prices in pounds, like 4 or 4.99.');
      return;
    }
    if (low && high && Number(low) > Number(high)) {
      setError('The lowest price must not be above the highest.');
      return;
    }
    setError(null);
    onApply({ minPrice: low || null, maxPrice: high || null });
  }

  return (
    <form className={styles.range} onSubmit={submit} aria-label="Price range" noValidate>
      <fieldset className={styles.fieldset}>
        <legend>Price (£)</legend>
        <label className={styles.price}>
          <span className="visually-hidden">Lowest price (£)</span>
          <input inputMode="decimal" placeholder="Min" value={min} onChange={(e) => setMin(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? 'price-range-error' : undefined} />
        </label>
        <span aria-hidden="true">–</span>
        <label className={styles.price}>
          <span className="visually-hidden">Highest price (£)</span>
          <input inputMode="decimal" placeholder="Max" value={max} onChange={(e) => setMax(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? 'price-range-error' : undefined} />
        </label>
        <button type="submit" className={ui.secondary}>
          Apply
        </button>
      </fieldset>
      {error && (
        <p id="price-range-error" className={styles.error} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
