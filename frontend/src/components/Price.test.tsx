import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { prerendering } from '../lib/prerendering';
import { percentOff, Price } from './Price';

describe('Price', () => {
  it('strikes through only a genuine was price, with the saving rounded down, beside the unit price and delivery', () => {
    render(<Price product={{ price: 12.5, discount: 10, Discountprice: 11.25, wasPrice: 12.5, pricePerLitre: 1.88 }} delivery={{ fee: 4.99, freeFrom: 40 }} />);
    expect(screen.getByText('£12.50').tagName).toBe('S');
    expect(screen.getByText('10% off')).toBeInTheDocument();
    expect(screen.getByText('£1.88 per litre')).toBeInTheDocument();
    expect(screen.getByTestId('delivery-line')).toHaveTextContent('+ £4.99 delivery, free from £40');
    expect(percentOff(10, 8.01)).toBe(19);
  });

  it('shows a discount without a genuine earlier price as the price alone, and no delivery line before the terms are held', () => {
    render(<Price product={{ price: 12.5, discount: 10, Discountprice: 11.25, wasPrice: null, pricePerLitre: null }} />);
    expect(screen.getByText('£11.25')).toBeInTheDocument();
    expect(screen.queryByText('£12.50')).toBeNull();
    expect(screen.queryByText(/% off/)).toBeNull();
    expect(screen.queryByText(/per litre/)).toBeNull();
    expect(screen.queryByTestId('delivery-line')).toBeNull();
  });

  it('keeps the unit price, the was price and the delivery charge out of a prerendered copy, as the price', () => {
    const copy = prerendering(() =>
      renderToString(<Price product={{ price: 12.5, wasPrice: 13, pricePerLitre: 1.88 }} delivery={{ fee: 4.99, freeFrom: 40 }} />),
    ).result;
    expect(copy).not.toMatch(/£\d|per litre|delivery,/);
    expect(copy).toContain('data-pending="price"');
  });
});
