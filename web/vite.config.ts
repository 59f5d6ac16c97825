import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The viewer's front-end: one script and one style with fixed names, so the server can serve
// them and the single-file report can inline them (src/view/single-file.ts) without a manifest.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    cssCodeSplit: false,
    assetsInlineLimit: 0,
    rollupOptions: {
      output: {
        entryFileNames: 'assets/app.js',
        chunkFileNames: 'assets/[name].js',
        assetFileNames: 'assets/app[extname]',
        // One file: the report inlines exactly one script.
        codeSplitting: false,
      },
    },
  },
});
