// ESLint flat config: JS + typescript-eslint + eslint-plugin-svelte, with formatting left to
// Prettier (eslint-config-prettier switches off the rules that would fight it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

export default defineConfig(
  {
    ignores: [
      'build/',
      'build-mcp/',
      'build-cli/',
      'dist/',
      '.svelte-kit/',
      'coverage/',
      'test-results/',
      'data/',
      'tmp/',
      'static/',
      'src/generated/',
    ],
  },
  js.configs.recommended,
  ts.configs.recommended,
  svelte.configs.recommended,
  prettier,
  svelte.configs.prettier,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      // The rule exists for apps under a base path (kit.paths.base); this one is served at '/',
      // so resolve() around every literal link would change no URL.
      'svelte/no-navigation-without-resolve': 'off',
    },
  },
  {
    // Tests read the built server's JSON answers, whose shape is what they assert; `any` there
    // is flagged for review, not forbidden. Source code has none and must keep it that way.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'warn' },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
        parser: ts.parser,
        svelteConfig,
      },
    },
  },
  {
    // Type-aware rules on the TypeScript files only: a promise nobody awaits (a database write,
    // a chain read, a settle call) is the bug class worth the type checker's time here. The
    // components are left out because typed linting of .svelte files through the project service
    // more than doubled the run on this 2-core machine.
    files: ['**/*.ts'],
    ignores: ['**/*.svelte.ts'],
    languageOptions: {
      parserOptions: {
        projectService: {
          // Files outside tsconfig.json's include list (SvelteKit generates that list). Not
          // '*.config.ts': vite.config.ts is in that list, and a file in both is an error.
          allowDefaultProject: ['vitest.config.ts', 'prisma.config.ts', 'vite.*.config.ts', 'bench/*.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // A ServerTime is made by reading the clock or by a repository reading back a column this
    // server wrote (src/lib/server/clock.ts): anywhere else, turning a Date into one would let a
    // caller's time into a check.
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    ignores: ['src/lib/server/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)clock$',
              importNames: ['storedServerTime'],
              message: 'Only repositories (src/lib/server/db/) turn a stored column into a ServerTime.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
