// npm run format writes, npm run lint checks (prettier --check). Set as close to the code's style
// before the formatter as a formatter allows, to keep the one reformat small: single quotes,
// semicolons, trailing commas where multi-line, and wide lines (the code's lines ran to 580
// characters; at 160 the reformat touched about 3,800 lines, at 120 about 5,900).
/** @type {import('prettier').Config} */
export default {
  printWidth: 160,
  singleQuote: true,
  trailingComma: 'all',
  // The dashboard's htm templates (html`…`) are markup whose spaces the page shows: left as written.
  embeddedLanguageFormatting: 'off',
};
