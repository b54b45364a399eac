import { describe, expect, it } from 'vitest';
import headerSlice, { cartPanelClosed, cartPanelToggled, initialHeaderState, menuClosed, menuToggled } from './headerSlice';
import { nextHidden } from '../../features/header/useHideOnScroll';

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

describe('navbar on scroll', () => {
  it('shows near the top of the page', () => {
    expect(nextHidden(300, 50, 96)).toBe(false);
  });

  it('hides going down and shows going up', () => {
    expect(nextHidden(200, 400, 96)).toBe(true);
    expect(nextHidden(400, 300, 96)).toBe(false);
  });

  it('ignores tiny moves', () => {
    expect(nextHidden(400, 403, 96)).toBeNull();
  });
});
