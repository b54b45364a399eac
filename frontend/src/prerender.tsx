// Build-time only (never shipped to the browser): renders the app's first screen at '/' to static HTML, which
// scripts/prerender.mjs puts into dist/index.html. The shopper then sees the header and the home page's hero
// as soon as the HTML and CSS arrive, instead of after the script has loaded and run; React replaces the
// markup with the same markup when it starts.
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { StaticRouter } from 'react-router';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';

export function render(url: string): string {
  return renderToString(
    <Provider store={makeStore()}>
      <StaticRouter location={url}>
        <AppRoutes />
      </StaticRouter>
    </Provider>,
  );
}
