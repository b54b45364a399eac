// An order's lines as a table: the drink with its pack, the quantity, the unit price and the line's amount,
// as the order page, the VAT receipt and the admin's order screen show them (each in its own styles).
import { formatMoney } from '../lib/format';
import type { Order } from '../lib/orderTypes';

interface OrderLinesProps {
  lines: Order['product'];
  /** The two money columns' headings, e.g. ['Price', 'Line total']. */
  headings: [string, string];
  classes: { table?: string | undefined; money?: string | undefined };
  rowTestId?: string;
}

export function OrderLines({ lines, headings, classes, rowTestId }: OrderLinesProps) {
  return (
    <table className={classes.table}>
      <thead>
        <tr>
          <th scope="col">Drink</th>
          <th scope="col">Qty</th>
          <th scope="col" className={classes.money}>
            {headings[0]}
          </th>
          <th scope="col" className={classes.money}>
            {headings[1]}
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.product} data-testid={rowTestId}>
            <td>
              {line.name} <span>({line.quantity})</span>
            </td>
            <td>{line.qty}</td>
            <td className={classes.money}>{formatMoney(line.price)}</td>
            <td className={classes.money}>{formatMoney((Math.round(line.price * 100) * line.qty) / 100)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
