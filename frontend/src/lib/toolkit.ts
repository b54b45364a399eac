// The Redux Toolkit functions the first page's store needs. Import them from here in the modules the first
// render loads (app/store.ts, app/rootReducer.ts and the slices in lib/plainSlice.ts); every other module
// imports Redux Toolkit directly.
//
// Why: Redux Toolkit is one module, and a module is all or nothing for a chunk. The lazily loaded screens'
// slices use createSlice, which carries immer (about 3.5 KB gzipped); if the first page imported the same
// module, all of it would ride in the first page's chunk. The build (vite.config.ts, firstPageToolkit)
// resolves the import below to a copy of the module of its own, keeping only these functions, while createSlice
// and immer load with the screens that use them. The two copies agree: actions are matched by their type, a
// slice is injected by its reducerPath and reducer, and the state proxy's marker is a global symbol. Tests and
// the dev server use the one module.
export { combineSlices, configureStore, createAction } from '@reduxjs/toolkit';
