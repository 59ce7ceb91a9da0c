// Builds the dashboard (src/dashboard/) into dist/dashboard/: relative asset URLs, so the server's <base href> decides
// the base path at run time; hashed files under assets/; no inline script or style, for the strict CSP.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: path.join(root, 'src/dashboard'),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: path.join(root, 'dist/dashboard'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Never inline assets as data: URLs or scripts; the CSP allows only 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
});
