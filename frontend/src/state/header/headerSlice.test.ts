import { describe, expect, it } from 'vitest';
import headerSlice, { cartPanelClosed, cartPanelToggled, initialHeaderState, menuClosed, menuToggled } from './headerSlice';

const { reducer } = headerSlice;

describe('header toggles', () => {
  it('toggles the mobile menu', () => {
    const open = reducer(initialHeaderState, menuToggled());
    expect(open.menuOpen).toBe(true);
    expect(reducer(open, menuToggled()).menuOpen).toBe(false);
    expect(reducer(open, menuClosed()).menuOpen).toBe(false);
  });

  it('toggles the cart panel, closing the menu as it opens', () => {
    const menu = reducer(initialHeaderState, menuToggled());
    const cart = reducer(menu, cartPanelToggled());
    expect(cart).toEqual({ menuOpen: false, cartOpen: true });
    expect(reducer(cart, cartPanelToggled()).cartOpen).toBe(false);
    expect(reducer(cart, cartPanelClosed()).cartOpen).toBe(false);
  });
});
