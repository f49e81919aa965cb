import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The studio app (docs/studio.md): built into dist/studio, served by the service at /studio
// (src/ops/studio.ts) with hashed asset names under /studio/assets.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/studio/',
  // JSX with React's automatic runtime, compiled by Vite's own transformer (no plugin needed).
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/studio', import.meta.url)),
    emptyOutDir: true,
    // the CSP forbids inline script: the polyfill would be one; every browser we serve has modulepreload
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: { proxy: { '/graphql': { target: 'http://127.0.0.1:3000', ws: true } } },
});
