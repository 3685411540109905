// The backoffice builds into web/dist; the server serves it at /admin (src/backoffice/router.ts).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt)$/;

/**
 * Beside each script, stylesheet, SVG and index.html of the build, a brotli (.br, quality 11)
 * and a gzip (.gz, level 9) copy, which the server sends to a browser accepting them: nothing is
 * compressed per request (docs/backoffice.md, "Speed"). A copy no smaller than its file is left
 * out, and the server then sends the file.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const file = path.join(dir, name);
          return statSync(file).isDirectory() ? walk(file) : COMPRESSIBLE.test(name) ? [file] : [];
        });
      for (const file of walk(outDir)) {
        const bytes = readFileSync(file);
        const br = brotliCompressSync(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        });
        const gz = gzipSync(bytes, { level: 9 });
        if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
        if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig({
  base: '/admin/',
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
  // `npm run dev -w web`: the app with hot reload, against `npm start` on :3000.
  server: {
    proxy: { '/graphql': 'http://localhost:3000', '/admin/api': 'http://localhost:3000' },
  },
});
