// The `apis` key of moor.config.yaml: only the APIs and settings moor knows, by their own names.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { UserError } from '../core/diagnostics.js';
import { loadConfig } from './config.js';

function load(text: string): ReturnType<typeof loadConfig> {
  const dir = mkdtempSync(join(tmpdir(), 'moor-apis-'));
  writeFileSync(join(dir, 'moor.config.yaml'), text);
  return loadConfig(undefined, dir, {});
}

describe('config apis key', () => {
  test('a name every object inherits (toString, constructor) is no API: refused, as any unknown name', () => {
    for (const name of ['toString', 'constructor', '__proto__']) {
      expect(() => load(`apis:\n  ${name}: {}\n`)).toThrow(UserError);
      expect(() => load(`apis:\n  ${name}: {}\n`)).toThrow(`apis.${name} is not an API`);
    }
  });

  test('nor is it a setting of an API: a clear message, never a crash', () => {
    for (const field of ['constructor', 'toString', 'hasOwnProperty']) {
      expect(() => load(`apis:\n  sql:\n    ${field}: x\n`)).toThrow(UserError);
      expect(() => load(`apis:\n  sql:\n    ${field}: x\n`)).toThrow(`apis.sql.${field} is not a setting (expected apiVersion, namespace)`);
    }
  });
});
