// Where JSON text first goes wrong, as line and column: JSON.parse says only "at position N" (or,
// for some errors, quotes the text around it — newlines and all), which is no use in a one-line message.

export interface JsonSyntaxError {
  /** 1-based. */
  readonly line: number;
  /** 1-based, in characters. */
  readonly col: number;
  /** What is wrong there: `unexpected 'tru'`, `the text ends early`. */
  readonly problem: string;
}

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const WORD = /[^\s,:[\]{}"]+|[\s\S]/y;
const ESCAPE = /\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** The first syntax error of `text`, or undefined when it is valid JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let at = 0;
  const fail = (problem: string): never => {
    throw Object.assign(new Error(problem), { at });
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at])) at++;
  };
  const unexpected = (): never => {
    if (at >= text.length) return fail('the text ends early');
    WORD.lastIndex = at;
    // WORD's last branch takes any one character, so it matches wherever the text goes on.
    const word = WORD.exec(text)?.[0] ?? text[at];
    return fail(`unexpected '${word}'`);
  };
  const expect = (char: string) => {
    space();
    if (text[at] !== char) unexpected();
    at++;
  };
  const match = (re: RegExp) => {
    re.lastIndex = at;
    const m = re.exec(text);
    if (m) at += m[0].length;
    return m !== null;
  };
  const string = () => {
    expect('"');
    for (;;) {
      if (at >= text.length) unexpected();
      const c = text[at];
      if (c === '"') {
        at++;
        return;
      }
      if (c === '\\') {
        if (!match(ESCAPE)) fail('a bad escape in a string');
        continue;
      }
      if (c < ' ') fail('a control character in a string (a newline or tab must be escaped)');
      at++;
    }
  };
  const value = (): void => {
    space();
    const c = text[at];
    if (c === '{') {
      members('}', () => {
        string();
        expect(':');
        value();
      });
      return;
    }
    if (c === '[') {
      members(']', value);
      return;
    }
    if (c === '"') {
      string();
      return;
    }
    const start = at;
    if (match(NUMBER) || match(LITERAL)) {
      // `01` or `truex`: the value runs on, and is named whole.
      if (at < text.length && /[\w.+-]/.test(text[at])) {
        at = start;
        unexpected();
      }
      return;
    }
    unexpected();
  };
  const members = (close: string, member: () => void) => {
    at++;
    space();
    if (text[at] === close) {
      at++;
      return;
    }
    for (;;) {
      member();
      space();
      if (text[at] === close) {
        at++;
        return;
      }
      expect(',');
      space();
      if (text[at] === close) unexpected(); // a trailing comma
    }
  };
  try {
    value();
    space();
    if (at < text.length) unexpected();
    return undefined;
  } catch (err) {
    const before = text.slice(0, (err as { at: number }).at).split('\n');
    return { line: before.length, col: before[before.length - 1].length + 1, problem: (err as Error).message };
  }
}

/** `not valid JSON at line L, column C: …` for text JSON.parse refused with `err` (its message may quote the text, newlines and all). */
export function notJsonMessage(text: string, err: Error): string {
  const at = jsonSyntaxError(text);
  return at ? `not valid JSON at line ${at.line}, column ${at.col}: ${at.problem}` : `not valid JSON (${err.message.split('\n')[0]})`;
}
