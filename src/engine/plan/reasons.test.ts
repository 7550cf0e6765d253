// Reason codes are a contract with the programs that read plans: each is documented, and adding a
// reason keeps the code that decides what apply does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REASON_CODES, reasonFields, withOnlyReason, withReason } from './reasons.js';
import type { PlannedChange } from './types.js';

const change: PlannedChange = { address: 'Thing/a', kind: 'Thing', action: 'run', fields: [], patch: [], drift: false, destructive: false };

describe('reason codes', () => {
  it('the plan guide (docs/plan-and-apply.md) names every code programs may read', () => {
    const guide = readFileSync(join(import.meta.dirname, '../../../docs/plan-and-apply.md'), 'utf8');
    expect(REASON_CODES.filter((code) => !guide.includes(`\`${code}\``))).toEqual([]);
  });

  it("a further reason joins the words and its code becomes the change's", () => {
    const first = { ...change, ...reasonFields({ code: 'revision-changed', text: 'revision changed from 3 to 4' }) };
    const held = withReason(first, { code: 'held-back', text: 'skipped until Job/b runs successfully' });
    expect(held).toMatchObject({ reason: 'revision changed from 3 to 4; skipped until Job/b runs successfully', reasonCode: 'held-back' });
    expect(withOnlyReason(held, { code: 'saved-plan-refused', text: 'refused: it changed' })).toMatchObject({
      reason: 'refused: it changed',
      reasonCode: 'saved-plan-refused',
    });
  });

  it('a change without a reason gets neither words nor code', () => {
    expect(reasonFields(undefined)).toEqual({});
  });
});
