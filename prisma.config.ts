// Prisma 7 CLI configuration. The CLI is used here only for `generate` (scripts/prisma-generate.ts);
// migrations are created and applied by the project's own WASM-engine scripts (docs/database.md).
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
