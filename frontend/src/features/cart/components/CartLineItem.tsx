// One basket line: image, name, pack label, the line's sum ("2 × £9.49 = £18.98"), and the stepper in update
// mode (each step pushes the changed line with its new qty) with a remove control.
import { DrinkImage } from '../../../components/DrinkImage';
import { useAppDispatch } from '../../../app/hooks';
import { formatMoney, truncate } from '../../../lib/format';
import { lineTotal } from '../../../lib/price';
import { cartLineAdded, cartLineRemoved, type CartLine } from '../../../state/basket/cartSlice';
import { QuantityStepper } from './QuantityStepper';
import styles from './CartPanel.module.css';

export function CartLineItem({ line }: { line: CartLine }) {
  const dispatch = useAppDispatch();
  return (
    <li className={styles.line} data-testid="cart-line">
      <DrinkImage className={styles.thumb} name={line.image} alt={line.name} width={72} height={72} />
      <div className={styles.details}>
        <div className={styles.text}>
          <h3 className={styles.name} title={line.name}>
            {truncate(line.name)}
          </h3>
          <p className={styles.pack}>{line.quantity}</p>
          <p className={styles.price} data-testid="cart-line-total">
            {line.qty} × {formatMoney(line.price)} = {formatMoney(lineTotal([line]))}
          </p>
        </div>
        <QuantityStepper
          itemName={line.name}
          qty={line.qty}
          onChange={(qty) => dispatch(cartLineAdded({ ...line, qty }))}
          onRemove={() => dispatch(cartLineRemoved(line.product))}
        />
      </div>
    </li>
  );
}
