// A saved plan file never holds a secret, even one a service echoed into an error message.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Masker } from '../../core/masker.js';
import { writeSavedPlan } from './saved-plan.js';

it('masks registered secrets in the saved plan, diagnostics included', () => {
  const m = new Masker();
  m.register('hunter2-very-secret');
  const file = join(mkdtempSync(join(tmpdir(), 'moor-saved-')), 'p.json');
  writeSavedPlan(file, { format: 'moor-plan/1', diagnostics: [{ severity: 'error', message: 'service said: bad password hunter2-very-secret' }] }, m);
  const text = readFileSync(file, 'utf8');
  expect(text).not.toContain('hunter2-very-secret');
  expect(text).toContain('bad password ***');
});
