// The quantity control: +1 up, -1 down but never below 1, and a remove button unless compact.
import { Icon } from '../../../components/Icon';
import { MIN_QTY } from '../../../state/basket/cartSlice';
import styles from './QuantityStepper.module.css';

const trashIcon = 'M4 7h16M9 7V4h6v3m-9 0 1 13h10l1-13m-7 4v6m4-6v6';

interface QuantityStepperProps {
  /** What is counted, for the buttons' labels: 'Mango Fizz'. */
  itemName: string;
  qty: number;
  onChange: (qty: number) => void;
  onRemove?: () => void;
  /** The small variant, without the remove control. */
  compact?: boolean;
}

export function QuantityStepper({ itemName, qty, onChange, onRemove, compact = false }: QuantityStepperProps) {
  return (
    <div className={`${styles.stepper} ${compact ? styles.compact : ''}`}>
      <div className={styles.controls} role="group" aria-label={`Quantity of ${itemName}`}>
        <button
          type="button"
          className={styles.step}
          aria-label={`Decrease quantity of ${itemName}`}
          // aria-disabled rather than disabled: a disabled button would drop the keyboard focus.
          aria-disabled={qty <= MIN_QTY}
          onClick={() => {
            if (qty > MIN_QTY) onChange(qty - 1);
          }}
        >
          <span aria-hidden="true">−</span>
        </button>
        <output className={styles.value} aria-live="polite" aria-label={`Quantity of ${itemName}`}>
          {qty}
        </output>
        <button
          type="button"
          className={styles.step}
          aria-label={`Increase quantity of ${itemName}`}
          onClick={() => onChange(qty + 1)}
        >
          <span aria-hidden="true">+</span>
        </button>
      </div>
      {!compact && onRemove && (
        <button type="button" className={styles.remove} aria-label={`Remove ${itemName}`} onClick={onRemove}>
          <Icon d={trashIcon} size={20} width={2} />
        </button>
      )}
    </div>
  );
}
