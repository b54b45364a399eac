// "Ingredients and nutrition" on a drink's page: what the Food Information Regulations 2014 ask a shopper
// be shown before buying. Ingredients with allergens in bold and the statements that follow them (liquorice),
// the allergens named, the nutrition table per 100 ml and per can, storage, and the producer's name and
// address. The high-caffeine warning stands by the price (ProductPage), where the shopper decides.
import { ALLERGEN_LABELS, ingredientSegments, nutritionRows, statementsAt, unitMillilitres } from '../../../lib/food';
import type { Product } from '../../../types/catalog';
import styles from './ProductPage.module.css';

export interface Producer {
  name: string;
  address: string;
}

export function FoodInformation({ product, producer }: { product: Product; producer: Producer | null }) {
  const ml = unitMillilitres(product.qty);
  const afterIngredients = statementsAt(product.statements, 'ingredients');
  const hasAny = product.ingredients || product.nutrition || product.storage || product.allergens.length > 0;
  if (!hasAny && !producer) return null;
  return (
    <section className={styles.details} aria-labelledby="food-title">
      <h2 id="food-title" className={styles.detailsTitle}>
        Ingredients and nutrition
      </h2>
      {product.ingredients && (
        <p data-testid="ingredients">
          <span className={styles.foodLabel}>Ingredients: </span>
          {ingredientSegments(product.ingredients).map((segment, index) =>
            segment.allergen ? <strong key={index}>{segment.text}</strong> : <span key={index}>{segment.text}</span>,
          )}
        </p>
      )}
      {afterIngredients.map((text) => (
        <p key={text} className={styles.statement}>
          {text}.
        </p>
      ))}
      <p>
        <span className={styles.foodLabel}>Allergens: </span>
        {product.allergens.length > 0
          ? `${product.allergens.map((a) => ALLERGEN_LABELS[a] ?? a).join(', ')}. See the ingredients in bold.`
          : 'none of the 14 regulated allergens.'}
      </p>
      {product.nutrition && (
        <table className={styles.nutrition}>
          <caption>Nutrition</caption>
          <thead>
            <tr>
              <th scope="col">Typical values</th>
              <th scope="col">Per 100 ml</th>
              {ml !== null && <th scope="col">Per can ({ml} ml)</th>}
            </tr>
          </thead>
          <tbody>
            {nutritionRows(product.nutrition, ml).map((row) => (
              <tr key={row.label}>
                <th scope="row" className={row.sub ? styles.subRow : undefined}>
                  {row.label}
                </th>
                <td>{row.per100}</td>
                {ml !== null && <td>{row.perUnit}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {product.storage && (
        <p>
          <span className={styles.foodLabel}>Storage: </span>
          {product.storage}
        </p>
      )}
      {producer && producer.name && (
        <p>
          <span className={styles.foodLabel}>Made by: </span>
          {producer.name}
          {producer.address && `, ${producer.address}`}
        </p>
      )}
    </section>
  );
}
