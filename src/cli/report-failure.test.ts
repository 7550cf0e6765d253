import { describe, expect, test } from 'vitest';
import { UserError } from '../core/diagnostics.js';
import { oneLineParseError, reportFailure } from './report-failure.js';

const rendered = (err: unknown) => {
  let text = '';
  const code = reportFailure(err, (t) => {
    text += t;
  });
  return { code, text };
};

describe('reportFailure', () => {
  test('an internal error prints its stack, marked as a bug', () => {
    const { code, text } = rendered(new TypeError('x is undefined'));
    expect(code).toBe(1);
    expect(text).toContain('internal error (a bug; please report it)');
    expect(text).toMatch(/TypeError: x is undefined\n\s+at /);
  });

  test('a user error is its message in one line', () => {
    expect(rendered(new UserError('no such thing'))).toEqual({ code: 1, text: 'error: no such thing\n' });
  });

  test('a file error is one line naming the file, not a bug', () => {
    const err = Object.assign(new Error("EISDIR: illegal operation on a directory, open 'x'"), { code: 'EISDIR', syscall: 'open', path: 'x' });
    expect(rendered(err)).toEqual({ code: 1, text: 'error: cannot open x: is a directory, not a file\n' });
  });
});

describe('oneLineParseError', () => {
  test("commander's suggestion joins the line, with where the help is", () => {
    expect(oneLineParseError("error: unknown option '--prun'\n(Did you mean --prune?)\n", 'plan ')).toBe(
      "error: unknown option '--prun' (did you mean --prune?); see 'moor plan --help'\n",
    );
  });

  test("a message ending in a full stop does not read '.;'", () => {
    expect(oneLineParseError("error: option '--format <format>' argument 'svg' is invalid. Allowed choices are mermaid, dot.", 'graph ')).toBe(
      "error: option '--format <format>' argument 'svg' is invalid. Allowed choices are mermaid, dot; see 'moor graph --help'\n",
    );
  });
});
