// Text moor did not write (a manifest's placeholder insides and map keys, a service's error codes and
// messages) made safe to print on one line of any output: terminal, log, markdown or CI log.

/** Line breaks, escape-sequence starts and other controls a terminal or a log viewer would act on. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` as it may stand on a line of output: every control character shown as an escape (`\n`,
 * `\r`, `\x1b`, `\u2028`), so it can neither end the line nor send the terminal a sequence (colour,
 * title, clear screen); and no GitHub workflow command: a leading `::` (commands start a line, after
 * any blanks) and a `##[` anywhere (the runner's older form) lose their first character to an escape.
 * Applying it twice changes nothing more.
 */
export function lineText(text: string): string {
  return text
    .replace(CONTROL, escapeChar)
    .replace(/^(\s*):(?=:)/, '$1\\x3a')
    .replace(/#(?=#\[)/g, '\\x23');
}

function escapeChar(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Controls JSON.stringify leaves raw (it escapes only those below U+0020). */
const JSON_RAW_CONTROL = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text with every control character escaped (`\u009b`, not the raw character), so JSON printed
 * to a terminal carries no escape sequence either, nor a log a workflow command; the same JSON to any parser.
 */
export function jsonText(value: unknown, indent?: number): string {
  return (
    JSON.stringify(value, null, indent)
      .replace(JSON_RAW_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      // The runner's older workflow commands start anywhere in a line, inside a JSON string too.
      .replace(/#(?=#\[)/g, '\\u0023')
  );
}
