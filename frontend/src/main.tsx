// Entry: the store (rehydrated from storage before the first render), the router and the chunk-failure
// handler.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { persistStore } from 'redux-persist';
import { PersistGate } from './app/PersistGate';
import { AppRoutes, prefetchPageRoutes } from './app/router';
import { makeStore } from './app/store';
import { reloadOnceForChunkError } from './lib/chunks';
import './styles/global.css';

// Vite reports a failed preload of a chunk's dependencies here; reload once instead of breaking the page.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnceForChunkError()) event.preventDefault();
});

prefetchPageRoutes();

const store = makeStore();
const persistor = persistStore(store);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <PersistGate persistor={persistor}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </PersistGate>
    </Provider>
  </StrictMode>,
);
