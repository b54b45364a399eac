// Build and test configuration for the storefront. The dev server proxies /api and /uploads to the local
// gateway (API_TARGET, default http://127.0.0.1:3000) so the app always talks to one origin, as in production.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { basename, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

/** `Header-link` for class `link` in Header.module.css: readable, and it compresses better than a hash. */
function scopedName(name: string, filename: string): string {
  const file = basename(filename).replace(/\.module\.css(\?.*)?$/, '');
  return `${file}-${name}`;
}

/**
 * Writes .vite/chunk-modules.json: for each emitted chunk, the source modules inside it. The bundle budget
 * (scripts/bundle-budget.mjs) reads it to prove that no admin module reaches the first page.
 */
function chunkModules(): Plugin {
  return {
    name: 'chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: Record<string, string[]> = {};
      for (const [file, output] of Object.entries(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks[file] = output.moduleIds.map((id) => relative(process.cwd(), id).replace(/\\/g, '/'));
      }
      this.emitFile({ type: 'asset', fileName: '.vite/chunk-modules.json', source: JSON.stringify(chunks, null, 1) });
    },
  };
}

/**
 * React Router ships one large module, and a module is all or nothing for a chunk: whatever of it survives
 * tree-shaking lands in the first page's chunk. Its production build keeps components no page uses alive
 * (NavLink, Form, ScrollRestoration, the contexts of data routers) through top-level side effects: the
 * `X.displayName = "..."` lines (read only by React's developer tools) and unannotated `React.forwardRef`,
 * `React.memo`, `React.createContext` and `new Set` calls. This drops the former and marks the latter pure,
 * so the bundler can leave out what is unused: about 2 KB gzipped. Behaviour is unchanged.
 */
function reactRouterTreeShaking(): Plugin {
  return {
    name: 'react-router-tree-shaking',
    apply: 'build',
    transform: {
      filter: { id: /react-router[\\/]dist[\\/]production[\\/]chunk-[\w-]+\.mjs$/ },
      handler(code) {
        return code
          .replace(/^[\w$]+\.displayName = "[^"\n]*";$/gm, '')
          .replace(/(?<![\w$.])(React\d*\.(?:forwardRef|memo|createContext)\()/g, '/* @__PURE__ */ $1')
          .replace(/^(var [\w$]+ = )(new Set\()/gm, '$1/* @__PURE__ */ $2');
      },
    },
  };
}

/**
 * Redux Toolkit is one module too, and the lazily loaded screens' slices use its createSlice, which carries
 * immer (about 3.5 KB gzipped). The first page's store imports what it needs through src/lib/toolkit.ts, and
 * this resolves that one file's import to a copy of Redux Toolkit's module of its own (the same file, with a
 * query): tree-shaken apart, the first page's copy keeps configureStore, combineSlices and createAction, and
 * createSlice with immer loads in the chunks of the screens that use it. The budget script fails if immer is
 * back in the first page's chunk. Client build only: the prerender's server build may hold everything.
 */
const FIRST_PAGE = '?first-page';
function firstPageToolkit(): Plugin {
  return {
    name: 'first-page-toolkit',
    enforce: 'pre',
    apply: 'build',
    async resolveId(source, importer, options) {
      const copy =
        (source === '@reduxjs/toolkit' && /[\\/]src[\\/]lib[\\/]toolkit\.ts$/.test(importer ?? '')) ||
        // The copy's own import of immer gets a copy too: the first page's copy uses none of it, so that copy is
        // dropped whole, and immer itself is then reached only from the screens' chunks.
        (source === 'immer' && importer?.endsWith(FIRST_PAGE));
      if (!copy) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && !resolved.external ? { ...resolved, id: `${resolved.id}${FIRST_PAGE}` } : resolved;
    },
  };
}

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [react(), chunkModules(), reactRouterTreeShaking(), ...(isSsrBuild ? [] : [firstPageToolkit()])],
  // React Router's package exports only its development build (dev-only checks and messages); the shop ships
  // its production build, which it also has: about 10 KB less on the first page, gzipped.
  resolve:
    command === 'build'
      ? { alias: [{ find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) }] }
      : {},
  css: { modules: { generateScopedName: scopedName } },
  build: {
    // Every browser the shop supports has modulepreload; the polyfill would only add script.
    modulePreload: false,
    // The bundle budget script reads the manifest to find the home page's initial chunks.
    manifest: true,
    target: 'es2022',
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        // Everything the first page needs in one chunk (it compresses better than many small ones). The other
        // shopper screens share one 'pages' chunk: a deep link to a product then costs one request, not a
        // chain of four. The admin area splits per screen as usual, and never joins the shopper's chunks.
        codeSplitting: {
          groups: [
            { name: 'shell', tags: ['$initial'] },
            // Saving the basket and session (redux-persist) loads beside the first render, on every page: small.
            { name: 'persistence', test: (id: string) => /[\\/](node_modules[\\/]redux-persist[\\/]|src[\\/]app[\\/]persistence\.ts$)/.test(id) },
            // The API client loads beside the first render (lib/deferredApi.ts), in a small chunk of its own.
            { name: 'api', test: (id: string) => /[\\/]src[\\/]lib[\\/]api\.ts$/.test(id) },
            // Home's drink cards load beside the home call (FeaturedDrinks.tsx), in a small chunk of their own.
            { name: 'featured', test: (id: string) => /[\\/]src[\\/]features[\\/]home[\\/]components[\\/]FeaturedDrinks\.tsx$/.test(id) },
            // The checkout (with Stripe's bindings) stays out of 'pages': it is a chunk of its own that loads only
            // when /checkout opens. (A group of its own would also pull in everything the checkout imports, as
            // groups do, and the pages that share those modules would then load the checkout with them.)
            { name: 'pages', test: (id: string) => /[\\/]src[\\/]/.test(id) && !/[\\/]src[\\/](admin|features[\\/]checkout)[\\/]/.test(id) },
          ],
        },
      },
    },
  },
  // The build-time prerender (src/prerender.tsx) runs in Node, which cannot load redux-persist's
  // extensionless ES imports: bundle it into the SSR build instead.
  ssr: { noExternal: ['redux-persist'] },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': apiTarget,
      '/uploads': apiTarget,
    },
  },
  preview: { host: '127.0.0.1' },
  test: {
    environment: 'happy-dom',
    globals: false,
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // CI runs on two cores with everything else; a first render that imports lazy chunks can pass 5 s there.
    testTimeout: 15_000,
    css: { modules: { classNameStrategy: 'non-scoped' } },
  },
}));
