// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The house rules: eslint's and typescript-eslint's recommended sets, plus the type-aware checks
 * that catch what bites a crash harness (a promise nobody awaits, a promise passed where a callback
 * is expected). Formatting is prettier's job, not the linter's.
 */
export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/.cache/**',
      // Generated reports; the report sources under compare/src/report are linted like everything else.
      'report/**',
      'compare/report/**',
      '**/.tmp/**',
      '**/.lab/**',
      'temporal-impl/test/histories/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.ts', '*/vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
);
