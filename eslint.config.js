// npm run lint: typescript-eslint's strict and stylistic type-checked rules over the TypeScript
// (src/, test/, vitest.config.ts), and ESLint's recommended rules over the JavaScript that runs
// under Node (bench/, scripts/, bin/, test fixtures) or in the browser (assets/dashboard/).
// Every rule turned off or relaxed below says why.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TS = ['**/*.ts'];
const TESTS = ['test/**/*.ts', 'src/**/*.test.ts'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-output/', 'coverage/'] },
  js.configs.recommended,
  {
    files: TS,
    extends: [...tseslint.configs.strictTypeChecked, ...tseslint.configs.stylisticTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Numbers and booleans print as one expects in a message; the rule stays on for objects,
      // null, undefined and anything else that would print as '[object Object]' or 'undefined'.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // It asks for `x!` where `x as T` only drops null, which no-non-null-assertion then refuses: the
      // two rules of the strict set contradict each other; no-non-null-assertion is the one kept.
      '@typescript-eslint/non-nullable-type-assertion-style': 'off',
      // A one-line arrow handed to a callback slot typed `=> void` (`() => finish('closed')`) says what
      // it does; braces around it add nothing. A void value returned or assigned is still refused.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // moor strips and escapes control characters in foreign text (terminal output, YAML scalars):
      // regular expressions that match them are the point, not a slip.
      'no-control-regex': 'off',
      // A name starting with _ is unused on purpose: a parameter a signature needs, or a key taken out
      // of an object with ...rest so that the rest goes without it.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // `||` on a string or a boolean is meant: an empty string (a blank variable, a blank spec) is unset,
      // and false gives way as undefined does. ?? is still asked for everywhere else.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true, boolean: true } }],
    },
  },
  {
    files: TESTS,
    rules: {
      // Tests read the CLI's JSON output and the services' answers as JSON.parse gives them (any) on
      // purpose: the expect() that follows is the check, and a cast would claim the very shape the
      // test is there to prove.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `found!` in a test is an assertion: when the thing is missing, the test fails at that line.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Test doubles implement async interfaces (a client, a backend, a host) with async methods that
      // need no await; dropping `async` would turn their thrown errors into synchronous throws.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Plain JavaScript: ESLint's recommended rules and the globals of where it runs.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  { files: ['assets/dashboard/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
);
