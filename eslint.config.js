// Lint, including the layering rules that keep the architecture honest (STYLE.md, Habits):
// domain code knows nothing of HTTP, GraphQL or MCP; transports reach the database only
// through domain functions (type imports aside).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

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
    files: ['src/domain/**/*.ts', 'src/engine/**/*.ts'],
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
