import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../testing/fakeFetch';
import { cola } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { qtyFromQuery } from './ProductPage';

describe('ProductPage', () => {
  it('shows the drink: images, description, pack label, price and discounted price', async () => {
    renderApp('/drinks/p-cola', { deps: { fetch: shopApi().fetch } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Classic Cola' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Classic Cola' })).toHaveAttribute('src', '/uploads/cola.png');
    expect(screen.getByText('12 x 500ml')).toBeInTheDocument();
    expect(screen.getByText('The original.')).toBeInTheDocument();
    expect(screen.getByText('£11.25')).toBeInTheDocument();
    expect(screen.getByText('£12.50')).toBeInTheDocument();
    expect(screen.getByText('10% off')).toBeInTheDocument();
    expect(document.title).toBe('Classic Cola | Palestine Drinks');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(/^Classic Cola \(12 x 500ml\)/);
  });

  it('switches pictures', async () => {
    const { user } = renderApp('/drinks/p-cola', { deps: { fetch: shopApi().fetch } });
    await user.click(await screen.findByRole('button', { name: 'Picture 2 of 2' }));
    expect(screen.getByRole('img', { name: 'Classic Cola' })).toHaveAttribute('src', '/uploads/cola-side.png');
  });

  it('adds to the basket with the quantity from the query string, at the discounted price', async () => {
    const { user, store } = renderApp('/drinks/p-cola?qty=3', { deps: { fetch: shopApi().fetch } });
    await screen.findByRole('heading', { level: 1, name: 'Classic Cola' });
    expect(screen.getByLabelText('Quantity of Classic Cola', { selector: 'output' })).toHaveTextContent('3');
    await user.click(screen.getByRole('button', { name: 'Increase quantity of Classic Cola' }));
    await user.click(screen.getByRole('button', { name: 'Add to basket' }));
    expect(store.getState().cart.cartItems).toEqual([
      { product: 'p-cola', name: 'Classic Cola', image: 'cola.png', quantity: '12 x 500ml', price: 11.25, des: 'The original.', qty: 4 },
    ]);
    expect(screen.getByTestId('basket-badge')).toHaveTextContent('1');
    // No remove control on the compact stepper.
    expect(screen.queryByRole('button', { name: 'Remove Classic Cola' })).not.toBeInTheDocument();
  });

  it('cannot add a sold-out drink', async () => {
    renderApp('/drinks/p-lemon', { deps: { fetch: shopApi().fetch } });
    expect(await screen.findByRole('button', { name: 'Sold out' })).toBeDisabled();
  });

  it("shows the server's message for an unknown drink, and 'Try again' asks again", async () => {
    let answer = json({ message: 'Product not found' }, 404);
    const api = shopApi({ 'GET /api/product/p-new': () => answer });
    const { user } = renderApp('/drinks/p-new', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Product not found');
    answer = json({ ...cola, _id: 'p-new', name: 'New Drink' });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'New Drink' })).toBeInTheDocument();
  });

  it('reads ?qty= as a whole number from 1', () => {
    expect(qtyFromQuery('3')).toBe(3);
    expect(qtyFromQuery('0')).toBe(1);
    expect(qtyFromQuery('2.5')).toBe(1);
    expect(qtyFromQuery(null)).toBe(1);
  });
});
