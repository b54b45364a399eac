// The front end's lint rules (`npm run lint`, part of `make test-frontend`): typescript-eslint's recommended
// rules, the rules of hooks, jsx-a11y's recommended rules, and which folder may import which (the zones below).
//
// TypeScript 7, which type-checks and builds the shop, has no JavaScript API yet, and typescript-eslint
// (8.74, the newest) parses through that API and refuses TypeScript 7. So, in this process only, the name
// 'typescript' means TypeScript 6.0, the last release with the API, installed inside lint-typescript/ (a
// folder of its own so that its `tsc` never takes the place of TypeScript 7's in node_modules/.bin). The
// rules that need type information are not used: they would run a second, slower type check beside tsc's.
// When typescript-eslint supports TypeScript 7, drop lint-typescript/, this redirect and the override in
// package.json.
import Module, { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import importPlugin from 'eslint-plugin-import';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const typescript6 = createRequire(new URL('./lint-typescript/package.json', import.meta.url)).resolve('typescript');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, request === 'typescript' ? typescript6 : request, ...rest);
};
// Loaded after the redirect (a static import would load it first).
const { default: tseslint } = await import('typescript-eslint');

const here = fileURLToPath(new URL('.', import.meta.url));
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Which folder may import which. Lowest first: lib/ and types/ (no React state, no screens), state/ (the
 * slices that several features and the admin share: the session, the site info, the basket), components/
 * (shared UI), then features/<name> (one storefront area each) and admin/ (the admin area), and app/ on top
 * (the store, the router and the page frame), which may import anything.
 */
const zones = [
  { target: './src/lib', from: ['./src/features', './src/admin'], message: 'lib/ is below every feature.' },
  {
    target: './src/lib/**/!(*.test).{ts,tsx}',
    from: ['./src/app', './src/state', './src/components'],
    message: 'lib/ is below the store and the UI (only its tests may use them).',
  },
  {
    target: './src/state',
    from: ['./src/features', './src/admin', './src/components'],
    message: 'state/ holds what features share: it imports none of them.',
  },
  { target: './src/components', from: ['./src/features', './src/admin'], message: 'components/ imports no feature.' },
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature never imports another: move what both need to state/, components/ or lib/.',
  })),
  { target: './src/features', from: './src/admin', message: 'No admin code in the storefront.' },
  { target: './src/admin', from: './src/features', message: 'The admin imports no storefront feature: share through state/, components/ or lib/.' },
];

export default defineConfig([
  globalIgnores(['dist', '.build/', 'test-artifacts/', 'lint-typescript/', 'src/lib/api-schema.ts']),
  {
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    extends: [js.configs.recommended],
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommended],
    rules: {
      // The code's convention, as tsc's noUnusedParameters has it: a leading underscore marks a parameter (or a
      // destructured name) that is there on purpose; and naming a field to leave it out of a rest is a use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `interface LazyLoadedSlices extends WithSlice<typeof slice> {}` is how a lazily injected slice adds its
      // state to the store's type (declaration merging, as Redux Toolkit documents it).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [jsxA11y.flatConfigs.recommended],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import/no-restricted-paths': ['error', { basePath: here, zones }],
    },
  },
  {
    // Build scripts, the browser journeys and the benchmarks run in Node; the journeys' page callbacks run in
    // the browser.
    files: ['*.{js,ts}', 'scripts/**', 'e2e/**', 'bench/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
]);
