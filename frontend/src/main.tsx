// Entry: the store, rehydrated from storage before the first render (so no screen sees an empty basket or a
// logged-out shopper for a frame), then the router. Until then the page shows the prerendered first screen
// (scripts/prerender.mjs), which React's first render replaces in one step. A chunk that fails to load is
// handled where it is imported (lib/chunks.ts).
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { persistStore } from 'redux-persist';
import { AppRoutes, prefetchPageRoutes } from './app/router';
import { makeStore } from './app/store';
import './styles/global.css';

prefetchPageRoutes();

const store = makeStore();
// The callback runs once the saved state is back (or redux-persist's 5 s timeout passed).
persistStore(store, null, () => {
  // A transition lets React yield to the browser while it builds the first screen (already painted from
  // the prerender), so a slow phone stays responsive.
  const root = createRoot(document.getElementById('root') as HTMLElement);
  startTransition(() => root.render(
    <StrictMode>
      <Provider store={store}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </Provider>
    </StrictMode>,
  ));
});
