// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/**
 * The house rules: eslint's and typescript-eslint's recommended sets, plus the type-aware checks
 * that catch what bites a crash harness (a promise nobody awaits, a promise passed where a callback
 * is expected), and no import circle (a module that reaches itself through its imports: the two
 * halves of one idea, or one of them in the wrong file). Formatting is prettier's job, not the linter's.
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
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
      // The imported files are TypeScript too: parsed as such, or the rule cannot follow them.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
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
      // Relative imports only: a package never imports back into the packages that depend on it.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
);
