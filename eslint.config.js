// Lint rules; the import restrictions keep storage drivers behind the ports and content parsers inside the
// content worker pool (see ARCHITECTURE.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const storageDrivers = ['better-sqlite3', '@elastic/elasticsearch', 'minio', 'ioredis'].map((name) => ({
  name, message: 'Storage drivers are imported only under src/storage/.',
}));

const WORKER_ONLY = 'Content parsing runs only in the content worker pool: only src/mime/ and src/content/content-worker.ts load it.';
const contentParsers = ['mailparser', 'html-to-text', 'htmlparser2', 'linkify-it', 'css-tree', 'mailauth'].map((name) => ({ name, message: WORKER_ONLY }));
/** libvips decodes in a thumbnail process under its memory limit, never in the server's (src/content/thumbnail-processes.ts). */
const imageDecoder = { name: 'sharp', allowTypeImports: true, message: 'Images are decoded only in a thumbnail process: only src/content/thumbnail.ts loads sharp.' };
/** The modules under src/mime/ that load a parser; their types are free to use anywhere. */
const parserModules = {
  group: ['**/mime/parse-email.js', '**/mime/message-view.js', '**/mime/extract-links.js', '**/mime/list-unsubscribe.js', '**/mime/header-summary.js', '**/mime/rendered-view.js', '**/mime/html-check.js', '**/mime/html-walk.js', '**/mime/html-text.js', '**/mime/sender-authentication.js'],
  allowTypeImports: true,
  message: WORKER_ONLY,
};

export default tseslint.config(
  // src/contract/api-types.ts is generated from openapi.yaml (npm run generate:api-types): its code is not ours to style.
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.services/**', 'src/contract/api-types.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: storageDrivers }],
    },
  },
  {
    files: ['src/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [...storageDrivers, ...contentParsers, imageDecoder], patterns: [parserModules] }] },
  },
  {
    files: ['src/content/thumbnail.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [...storageDrivers, ...contentParsers], patterns: [parserModules] }] },
  },
  {
    files: ['src/storage/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [...contentParsers, imageDecoder], patterns: [parserModules] }] },
  },
  {
    files: ['src/mime/**', 'src/content/content-worker.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [...storageDrivers, imageDecoder] }] },
  },
  {
    // The error translators' tests build each driver's own errors, to see what they become on leaving the adapter.
    files: ['test/unit/storage/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The dashboard runs in browsers: browser globals, no Node ones.
    files: ['src/dashboard/**'],
    languageOptions: {
      globals: Object.fromEntries(['window', 'document', 'navigator', 'location', 'history', 'console', 'fetch', 'URL', 'URLSearchParams',
        'Event', 'MouseEvent', 'HTMLElement', 'HTMLInputElement', 'HTMLSelectElement', 'HTMLHeadingElement', 'Intl'].map((name) => [name, 'readonly'])),
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
