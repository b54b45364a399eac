// Choose a quantity (compact stepper: no remove) and add the drink to the basket. A drink already in the
// basket has its line replaced with the new quantity. Once it is in, "View basket" opens the basket panel.
// A sold-out drink shows no quantity to choose: only the disabled "Sold out" (the page offers the alert).
import { useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { isPrerendering } from '../../../lib/prerendering';
import type { Product } from '../../../types/catalog';
import { cartPanelToggled, selectCartOpen } from '../../../state/header/headerSlice';
import { cartLineFromProduct } from '../../../state/basket/cartLine';
import { cartLineAdded, clampQty, selectCartLines } from '../../../state/basket/cartSlice';
import { QuantityStepper } from './QuantityStepper';
import styles from './AddToBasket.module.css';

export function AddToBasket({ product, initialQty = 1 }: { product: Product; initialQty?: number }) {
  const dispatch = useAppDispatch();
  const inBasket = useAppSelector(selectCartLines).some((line) => line.product === product._id);
  const panelOpen = useAppSelector(selectCartOpen);
  const [qty, setQty] = useState(() => clampQty(initialQty));
  const [added, setAdded] = useState(false);
  // The build's copy of the page says nothing of stock (lib/prerendering.ts); its controls wait for the app.
  const soldOut = product.TheNumber <= 0 && !isPrerendering();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (soldOut) return;
    dispatch(cartLineAdded(cartLineFromProduct(product, qty)));
    setAdded(true);
  }

  return (
    <form className={styles.form} onSubmit={onSubmit} aria-label={`Buy ${product.name}`}>
      {!soldOut && (
        <div className={styles.row}>
          <span className={styles.label} id="qty-label">
            Quantity
          </span>
          <QuantityStepper
            compact
            itemName={product.name}
            qty={qty}
            onChange={(next) => {
              setQty(next);
              setAdded(false);
            }}
          />
        </div>
      )}
      <button type="submit" className={styles.add} disabled={soldOut}>
        {soldOut ? 'Sold out' : 'Add to basket'}
      </button>
      <p className={styles.status} role="status">
        {added ? `Added to your basket: ${qty} × ${product.name}` : inBasket ? 'This drink is in your basket.' : ''}
      </p>
      {(added || inBasket) && (
        <button type="button" className={styles.view} onClick={() => !panelOpen && dispatch(cartPanelToggled())}>
          View basket
        </button>
      )}
    </form>
  );
}
