import { describe, expect, it } from 'vitest';
import { caffeineWarning, ingredientSegments, nutritionRows, unitMillilitres } from './food';

describe('food information', () => {
  it('marks the starred words as allergens', () => {
    expect(ingredientSegments('Water, *barley* malt, sugar')).toEqual([
      { text: 'Water, ', allergen: false },
      { text: 'barley', allergen: true },
      { text: ' malt, sugar', allergen: false },
    ]);
  });

  it('reads the size of one can from the pack label', () => {
    expect(unitMillilitres('24 x 330ml')).toBe(330);
    expect(unitMillilitres('6 x 1.5 L')).toBe(1500);
    expect(unitMillilitres('12 x 50cl')).toBe(500);
    expect(unitMillilitres('A case')).toBeNull();
  });

  it('works out the per-can column from per 100 ml', () => {
    const rows = nutritionRows(
      { energyKj: 180, energyKcal: 42, fat: 0, saturates: 0, carbohydrate: 10.6, sugars: 10.6, protein: 0, salt: 0.1 },
      330,
    );
    expect(rows[0]).toMatchObject({ label: 'Energy', per100: '180 kJ / 42 kcal', perUnit: '594 kJ / 139 kcal' });
    expect(rows.find((r) => r.label === 'of which sugars')).toMatchObject({ per100: '10.6 g', perUnit: '35.0 g', sub: true });
    const water = { energyKj: 0, energyKcal: 0, fat: 0, saturates: 0, carbohydrate: 0, sugars: 0, protein: 0, salt: 0 };
    expect(nutritionRows(water, null).map((r) => r.perUnit)).toEqual(Array(7).fill(null));
  });

  it('warns only above 150 mg per litre', () => {
    expect(caffeineWarning(150)).toBeNull();
    expect(caffeineWarning(null)).toBeNull();
    expect(caffeineWarning(160)).toBe(
      'High caffeine content. Not recommended for children or pregnant or breast-feeding women (16 mg/100 ml).',
    );
  });
});
