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
  selectors: {
    selectMenuOpen: (state) => state.menuOpen,
    selectCartOpen: (state) => state.cartOpen,
  },
});

export const { menuToggled, menuClosed, cartPanelToggled, cartPanelClosed } = headerSlice.actions;
export const { selectMenuOpen, selectCartOpen } = headerSlice.selectors;
export default headerSlice;
