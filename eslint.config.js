// Lint, including the layering rules that keep the architecture honest (STYLE.md, Habits):
// domain code knows nothing of HTTP, GraphQL or MCP; transports reach the database only
// through domain functions (type imports aside).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The ledger is append-only and written by one function (domain/ledger/apply-movements.ts calls
// the database's ledger_move): SQL text or Prisma calls that write coin_movements anywhere else
// would bypass its lock, its lots and its never-negative check. Transports (and the HTTP
// Idempotency-Key layer among them) do not read the table either: what they need of it, the
// ledger exports (`movementWritten`). Domain reads (reports, timelines) stay where they are.
const writesCoinMovements =
  /\b(insert\s+into|update|delete\s+from|truncate(\s+table)?)\s+coin_movements\b/i;
const readsCoinMovements = /\b(from|join|into|update)\s+coin_movements\b/i;
const sqlOn = (pattern, message) => [
  { selector: `Literal[value=${pattern}]`, message },
  { selector: `TemplateElement[value.raw=${pattern}]`, message },
];
const LEDGER_WRITES = [
  ...sqlOn(writesCoinMovements, 'Coins move through the ledger (domain/ledger), never by SQL.'),
  {
    selector:
      "MemberExpression[object.property.name='coinMovement'][property.name=/^(create|update|upsert|delete)/]",
    message: 'Coins move through the ledger (domain/ledger), never by a Prisma write.',
  },
];
const LEDGER_READS = sqlOn(
  readsCoinMovements,
  'Transports do not query the ledger: ask a domain function (or domain/ledger).',
);

// Transports reach the database through domain functions (docs/architecture.md, "Layers"): a
// Prisma model's query or write (`db.order.findMany`, `tx.customer.update`…) or raw SQL through
// the client (`$queryRaw`, `$executeRaw`…) in a transport is an error. The models are read from
// the Prisma schema, by their client names, so a new one is covered without a change here. Two
// files are let off raw SQL: the readiness probe (it checks the database itself: its migrations
// table). The Idempotency-Key store is not a transport's: src/exactly-once owns it, below the
// transports and above the domain. SQL sent through db/sql.ts's `sqlFor` is not seen here.
const prismaModels = [
  ...readFileSync(path.join(import.meta.dirname, 'prisma/schema.prisma'), 'utf8').matchAll(
    /^model\s+(\w+)/gm,
  ),
].map(([, name]) => name[0].toLowerCase() + name.slice(1));
const prismaMethods = [
  'findMany',
  'findFirst',
  'findFirstOrThrow',
  'findUnique',
  'findUniqueOrThrow',
  'count',
  'aggregate',
  'groupBy',
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'upsert',
  'delete',
  'deleteMany',
];
const MODEL_CALLS = {
  selector: `MemberExpression[object.type='MemberExpression'][object.property.name=/^(${prismaModels.join('|')})$/][property.name=/^(${prismaMethods.join('|')})$/]`,
  message: 'Transports reach the database through domain functions, not Prisma model calls.',
};
const RAW_SQL = {
  selector: 'MemberExpression[property.name=/^\\$(queryRaw|executeRaw)(Unsafe)?$/]',
  message: 'Transports reach the database through domain functions, not raw SQL.',
};
/** The transport file let off raw SQL (above); every other selector still holds there. */
const RAW_SQL_ALLOWED = ['src/http/probes.ts'];

const transportOnly = [
  'express',
  'express-*',
  'graphql',
  'graphql-yoga',
  '@modelcontextprotocol/*',
  '@pothos/*',
];

export default tseslint.config(
  {
    ignores: [
      'src/generated/**',
      'dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'web/dist/**',
      'web/src/graphql-env.d.ts',
      'marketplace/dist/**',
      'marketplace/src/graphql-env.d.ts',
      'src/graphql/trusted-documents.generated.ts',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/domain/ledger/**'],
    rules: { 'no-restricted-syntax': ['error', ...LEDGER_WRITES] },
  },
  {
    files: ['src/player/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: transportOnly, message: 'Domain code must not depend on a transport.' },
          ],
        },
      ],
    },
  },
  // Layers point down: transports → player (the marketplace, over both) → engines → domain → db.
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: transportOnly, message: 'Domain code must not depend on a transport.' },
            {
              group: ['**/engine/**', '**/player/**'],
              message: 'The engines and the player side call the domain, never the reverse.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: transportOnly, message: 'Domain code must not depend on a transport.' },
            {
              group: ['**/player/**'],
              message: 'The player side calls the engines, not the reverse.',
            },
          ],
        },
      ],
    },
  },
  {
    // Exactly-once is the transports' common ground: they call it, it calls none of them.
    files: ['src/exactly-once/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: transportOnly, message: 'Exactly-once must not depend on a transport.' },
            {
              group: ['**/rest/**', '**/http/**', '**/mcp/**', '**/graphql/**', '**/schema/**'],
              message: 'Exactly-once sits below the transports: they call it.',
            },
          ],
        },
      ],
    },
  },
  {
    // The keyed stores' list and claim are below the domain, which declares its claims with them.
    files: ['src/exactly-once/keyed-stores.ts', 'src/exactly-once/claim-key.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '!../db', './keyed-requests*', './recent-answers*'],
              message:
                'The keyed stores sit below the domain: they import db/ and each other only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/db/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/domain/**', '**/engine/**', '**/player/**'],
              message: 'The database layer is below the domain: it imports none of it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      'src/rest/**/*.ts',
      'src/http/**/*.ts',
      'src/mcp/**/*.ts',
      'src/graphql/**/*.ts',
      'src/pages/**/*.ts',
      'src/backoffice/**/*.ts',
    ],
    rules: {
      'no-restricted-syntax': ['error', ...LEDGER_WRITES, ...LEDGER_READS, MODEL_CALLS, RAW_SQL],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/generated/prisma/*', '@prisma/*', 'pg'],
              allowTypeImports: true,
              message: 'Transports reach the database through domain functions.',
            },
          ],
        },
      ],
    },
  },
  // (A later entry for the same rule replaces the earlier one: the whole list again, less RAW_SQL.)
  {
    files: RAW_SQL_ALLOWED,
    rules: { 'no-restricted-syntax': ['error', ...LEDGER_WRITES, ...LEDGER_READS, MODEL_CALLS] },
  },
  {
    files: ['scripts/**', 'bench/**', 'test/**', 'src/cli/**', 'src/server.ts'],
    rules: { 'no-console': 'off' },
  },
  // Tests read JSON bodies of many shapes; typing each would hide the assertions.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // The backoffice (web/) and the marketplace (Preact, the same hooks): the rules of hooks; their
  // scripts run on Node.
  {
    files: ['web/src/**/*.{ts,tsx}', 'marketplace/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['web/scripts/**', 'marketplace/scripts/**'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
    rules: { 'no-console': 'off' },
  },
);
