// Lint rules; the import restriction keeps storage drivers behind the ports (see ARCHITECTURE.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const storageDrivers = ['better-sqlite3', '@elastic/elasticsearch', 'minio', 'ioredis'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.services/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', {
        paths: storageDrivers.map((name) => ({ name, message: 'Storage drivers are imported only under src/storage/.' })),
      }],
    },
  },
  {
    files: ['src/storage/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
