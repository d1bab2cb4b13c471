// Prettier's settings for web/*.js, the style the page was written in: 2-space indent, single
// quotes, semicolons, trailing commas; 120 columns, as .clang-format allows the C++.
export default {
  printWidth: 120,
  tabWidth: 2,
  singleQuote: true,
  semi: true,
  trailingComma: 'all',
  arrowParens: 'always',
};
