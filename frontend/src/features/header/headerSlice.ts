// The header's toggles: the mobile menu and the full-screen cart panel.
import { createSlice } from '@reduxjs/toolkit';

export interface HeaderState {
  menuOpen: boolean;
  cartOpen: boolean;
}

export const initialHeaderState: HeaderState = { menuOpen: false, cartOpen: false };

const headerSlice = createSlice({
  name: 'header',
  initialState: initialHeaderState,
  reducers: {
    menuToggled(state) {
      state.menuOpen = !state.menuOpen;
    },
    menuClosed(state) {
      state.menuOpen = false;
    },
    cartPanelToggled(state) {
      state.cartOpen = !state.cartOpen;
      if (state.cartOpen) state.menuOpen = false;
    },
    cartPanelClosed(state) {
      state.cartOpen = false;
    },
  },
});

export const { menuToggled, menuClosed, cartPanelToggled, cartPanelClosed } = headerSlice.actions;
// Plain selector functions: the ones a page does not use drop out of its script.
type Root = { header: HeaderState };
export const selectMenuOpen = (state: Root) => state.header.menuOpen;
export const selectCartOpen = (state: Root) => state.header.cartOpen;

export default headerSlice;
