// Entry: the store, holding what the shopper's browser saved (read before the first render, so no screen sees
// an empty basket or a logged-out shopper for a frame), then the router. Until React's first render the page
// shows the prerendered first screen (scripts/prerender.mjs), which that render replaces in one step. The
// saving (redux-persist) loads beside it, as a chunk of its own. A chunk that fails to load is handled where
// it is imported (lib/chunks.ts).
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { AppRoutes, prefetchPageRoutes, preloadPrerenderedPage } from './app/router';
import { readSavedState } from './app/savedState';
import { makeStore } from './app/store';
import './styles/global.css';

prefetchPageRoutes();

/** The longest a prerendered page waits for its chunk and data before React takes it over. */
const PRERENDERED_WAIT_MS = 4000;

const store = makeStore(readSavedState(), {
  // A logout forced by an auth failure is saved before the page reloads (else the reload would bring the
  // stale session back, and fail again).
  reload: () => void saving.then((persistor) => persistor?.flush()).finally(() => window.location.reload()),
});
// Without its chunk (a failed load) the shop still works; it only forgets this visit's changes on a reload.
const saving = import('./app/persistence').then(({ persistState }) => persistState(store)).catch(() => undefined);

// A transition lets React yield to the browser while it builds the first screen (already painted from the
// prerender), so a slow phone stays responsive.
const container = document.getElementById('root') as HTMLElement;
const root = createRoot(container);
// A page prerendered with its data (scripts/prerender-pages.mjs) stays as it is until its chunk and its data
// are here, so the first render shows the same page, with the live data, rather than a loading state; a
// slow network gets the app's own loading state after a few seconds, so the page does not stay inert.
const ready = container.hasAttribute('data-prerendered')
  ? Promise.race([
      preloadPrerenderedPage(store.dispatch, window.location),
      new Promise((resolve) => window.setTimeout(resolve, PRERENDERED_WAIT_MS)),
    ])
  : null;
const render = () => startTransition(() => root.render(
  <StrictMode>
    <Provider store={store}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Provider>
  </StrictMode>,
));
if (ready) void ready.then(render);
else render();
