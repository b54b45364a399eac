// The header's toggles: the mobile menu and the full-screen cart panel. A plain slice (no immer): the first page
// holds it (lib/plainSlice.ts).
import { createPlainSlice } from '../../lib/plainSlice';

export interface HeaderState {
  menuOpen: boolean;
  cartOpen: boolean;
}

export const initialHeaderState: HeaderState = { menuOpen: false, cartOpen: false };

const headerSlice = createPlainSlice('header', initialHeaderState, {
  menuToggled: (state) => ({ ...state, menuOpen: !state.menuOpen }),
  menuClosed: (state) => ({ ...state, menuOpen: false }),
  /** Opening the cart panel closes the menu. */
  cartPanelToggled: (state) =>
    state.cartOpen ? { ...state, cartOpen: false } : { ...state, cartOpen: true, menuOpen: false },
  cartPanelClosed: (state) => ({ ...state, cartOpen: false }),
});

export const { menuToggled, menuClosed, cartPanelToggled, cartPanelClosed } = headerSlice.actions;
// Plain selector functions: the ones a page does not use drop out of its script.
type Root = { header: HeaderState };
export const selectMenuOpen = (state: Root) => state.header.menuOpen;
export const selectCartOpen = (state: Root) => state.header.cartOpen;

export default headerSlice;
