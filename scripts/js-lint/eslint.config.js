// ESLint's flat config for the explorer page (web/*.js): its recommended rules, for ES modules
// run in a browser. scripts/check-js.sh passes it with --config, so paths are from the root.
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    files: ['web/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: globals.browser,
    },
  },
];
