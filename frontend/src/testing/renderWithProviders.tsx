// Renders a component (or the whole app at a path) with a real store and router, as the app runs.
import { render, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { AppRoutes } from '../app/router';
import { makeStore, type AppStore, type RootState, type StoreDeps } from '../app/store';

interface ExtendedRenderOptions extends Omit<RenderOptions, 'queries' | 'wrapper'> {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  /** Where the router starts: '/shop/drinks/', or a path with the router state a navigation would carry. */
  route?: string | { pathname: string; search?: string; state?: unknown };
  deps?: StoreDeps;
}

export function renderWithProviders(ui: ReactElement, options: ExtendedRenderOptions = {}) {
  const { preloadedState, deps, route = '/', store = makeStore(preloadedState, deps), ...renderOptions } = options;
  const user = userEvent.setup();
  const result = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </Provider>,
    renderOptions,
  );
  return { store, user, ...result };
}

/** The whole app (frame, routes, lazy screens) at `route`. */
export function renderApp(route: NonNullable<ExtendedRenderOptions['route']>, options: Omit<ExtendedRenderOptions, 'route'> = {}) {
  return renderWithProviders(<AppRoutes />, { ...options, route });
}
