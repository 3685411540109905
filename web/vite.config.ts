// The backoffice builds into web/dist; the server serves it at /admin (src/backoffice/router.ts).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
  // `npm run dev -w web`: the app with hot reload, against `npm start` on :3000.
  server: {
    proxy: { '/graphql': 'http://localhost:3000', '/admin/api': 'http://localhost:3000' },
  },
});
