// The player marketplace builds into marketplace/dist; the server serves its pages at /store/… and
// /track/… and its files at /marketplace/assets (src/pages/marketplace.ts). Preact, not React:
// casinos embed it in their own mobile pages, and its first load must stay small
// (docs/marketplace.md).
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/** Every asset also as .br and .gz, served to browsers that accept them (no work per request). */
const precompress = (): Plugin => ({
  name: 'precompress',
  apply: 'build',
  generateBundle(_options, bundle) {
    for (const file of Object.values(bundle)) {
      if (!/\.(js|css|svg)$/.test(file.fileName)) continue;
      const source = file.type === 'chunk' ? file.code : file.source;
      const bytes = typeof source === 'string' ? Buffer.from(source) : Buffer.from(source);
      this.emitFile({
        type: 'asset',
        fileName: `${file.fileName}.br`,
        source: brotliCompressSync(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
        }),
      });
      this.emitFile({
        type: 'asset',
        fileName: `${file.fileName}.gz`,
        source: gzipSync(bytes, { level: 9 }),
      });
    }
  },
});

export default defineConfig({
  base: '/marketplace/',
  plugins: [precompress()],
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    modulePreload: { polyfill: false },
  },
  server: { proxy: { '/graphql': 'http://localhost:3000' } },
});
