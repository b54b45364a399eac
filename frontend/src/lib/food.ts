// The food information a drink's page shows (ingredients, allergens, nutrition, the caffeine warning), as
// pure helpers: the ingredients' allergen marks, the per-can column worked out from the pack label, and
// the high-caffeine rule (over 150 mg per litre, Food Information Regulations 2014).
import type { Product } from '../types/catalog';

export type Nutrition = NonNullable<Product['nutrition']>;

/** Above this many mg of caffeine per litre the label must carry the warning. */
export const HIGH_CAFFEINE_MG_PER_LITRE = 150;

export const CAFFEINE_WARNING = 'High caffeine content. Not recommended for children or pregnant or breast-feeding women';

/**
 * The Annex III statements a label may carry (the drink's `statements`), in the words the regulation gives
 * them, and where the law puts them: beside the drink's name, or just after its ingredients. The
 * high-caffeine one is `caffeineWarning`'s, with its figure, shown near the price.
 */
export const STATEMENTS: Record<string, { text: string; place: 'name' | 'ingredients' }> = {
  'with-sweeteners': { text: 'With sweeteners', place: 'name' },
  'with-sugar-and-sweeteners': { text: 'With sugar and sweeteners', place: 'name' },
  phenylalanine: { text: 'Contains a source of phenylalanine', place: 'name' },
  polyols: { text: 'Excessive consumption may produce laxative effects', place: 'name' },
  liquorice: { text: 'Contains liquorice', place: 'ingredients' },
  'liquorice-hypertension': {
    text: 'Contains liquorice: people suffering from hypertension should avoid excessive consumption',
    place: 'ingredients',
  },
};

/** The statement ids an admin picks (high-caffeine follows the caffeine), in the label's order. */
export const PICKABLE_STATEMENTS = Object.keys(STATEMENTS);

/** The statements of a drink that belong at `place`, as words. */
export function statementsAt(statements: readonly string[] | undefined, place: 'name' | 'ingredients'): string[] {
  return (statements ?? []).flatMap((id) => {
    const statement = STATEMENTS[id];
    return statement && statement.place === place ? [statement.text] : [];
  });
}

/** The 14 regulated allergens as the API spells them, with the words a label uses. */
export const ALLERGEN_LABELS: Record<string, string> = {
  celery: 'Celery',
  gluten: 'Cereals containing gluten',
  crustaceans: 'Crustaceans',
  eggs: 'Eggs',
  fish: 'Fish',
  lupin: 'Lupin',
  milk: 'Milk',
  molluscs: 'Molluscs',
  mustard: 'Mustard',
  nuts: 'Tree nuts',
  peanuts: 'Peanuts',
  sesame: 'Sesame',
  soya: 'Soya',
  sulphites: 'Sulphur dioxide and sulphites',
};

export const ALLERGENS = Object.keys(ALLERGEN_LABELS);

export interface Segment {
  text: string;
  allergen: boolean;
}

/** "Water, *barley* malt" → the marked words apart, to print in bold. */
export function ingredientSegments(ingredients: string): Segment[] {
  return ingredients
    .split('*')
    .map((text, index) => ({ text, allergen: index % 2 === 1 }))
    .filter((segment) => segment.text.length > 0);
}

/** The millilitres of one can or bottle from a pack label ("24 x 330ml" → 330), or null when it names none. */
export function unitMillilitres(packLabel: string): number | null {
  const match = /(\d+(?:\.\d+)?)\s*(ml|cl|l)\b/i.exec(packLabel);
  if (!match) return null;
  const amount = Number(match[1]);
  const unit = (match[2] ?? '').toLowerCase();
  const ml = unit === 'l' ? amount * 1000 : unit === 'cl' ? amount * 10 : amount;
  return ml > 0 ? ml : null;
}

export interface NutritionRow {
  label: string;
  per100: string;
  perUnit: string | null;
  /** "of which" rows are indented under their parent. */
  sub: boolean;
}

const grams = (value: number) => `${value.toFixed(1)} g`;

/** The nutrition table's rows, per 100 ml and (when the pack names a size) per can. */
export function nutritionRows(nutrition: Nutrition, ml: number | null): NutritionRow[] {
  const scale = (value: number) => (ml === null ? null : (value * ml) / 100);
  const energy = (kj: number, kcal: number) => `${Math.round(kj)} kJ / ${Math.round(kcal)} kcal`;
  const gramRow = (label: string, value: number, sub = false): NutritionRow => {
    const unit = scale(value);
    return { label, per100: grams(value), perUnit: unit === null ? null : grams(unit), sub };
  };
  const kj = scale(nutrition.energyKj);
  const kcal = scale(nutrition.energyKcal);
  return [
    {
      label: 'Energy',
      per100: energy(nutrition.energyKj, nutrition.energyKcal),
      perUnit: kj === null || kcal === null ? null : energy(kj, kcal),
      sub: false,
    },
    gramRow('Fat', nutrition.fat),
    gramRow('of which saturates', nutrition.saturates, true),
    gramRow('Carbohydrate', nutrition.carbohydrate),
    gramRow('of which sugars', nutrition.sugars, true),
    gramRow('Protein', nutrition.protein),
    gramRow('Salt', nutrition.salt),
  ];
}

/** The warning's figure: mg per 100 ml, as the regulations want it printed beside the words. */
export function caffeineWarning(mgPerLitre: number | null | undefined): string | null {
  if (mgPerLitre == null || mgPerLitre <= HIGH_CAFFEINE_MG_PER_LITRE) return null;
  const per100 = Math.round(mgPerLitre) / 10;
  return `${CAFFEINE_WARNING} (${per100} mg/100 ml).`;
}
