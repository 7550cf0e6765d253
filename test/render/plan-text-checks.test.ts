// A check that does not pass shows once in a text or markdown plan: in the Checks list, not again as a diagnostic.
import { describe, expect, it } from 'vitest';
import { renderPlanMarkdown, renderPlanText } from '../../src/engine/render/index.js';
import { summarize, type Plan, type PlannedChange } from '../../src/engine/plan/types.js';

const base = { fields: [], patch: [], drift: false, destructive: false, action: 'no-op', kind: 'Check' } as const;
const changes: PlannedChange[] = [
  { ...base, address: 'Check/soft', check: { passed: false, severity: 'warning', message: 'quota of ContainerGroups: need at least 101' } },
  { ...base, address: 'Check/hard', check: { passed: false, severity: 'error', message: 'name taken' } },
];
const plan: Plan = {
  format: 'moor-plan/1',
  serial: 1,
  changes,
  summary: summarize(changes),
  diagnostics: [
    {
      severity: 'warning',
      message: 'check failed: quota of ContainerGroups: need at least 101',
      location: { file: 'm/check.yaml', line: 5, col: 3 },
      address: 'Check/soft',
      code: 'check',
    },
    { severity: 'error', message: 'check failed: name taken', location: { file: 'm/check.yaml', line: 12, col: 3 }, address: 'Check/hard', code: 'check' },
    {
      severity: 'warning',
      message: 'secureValue is a literal secret',
      location: { file: 'm/web.yaml', line: 9, col: 3 },
      address: 'ContainerGroup/web',
      code: 'literal-secret',
    },
  ],
};

describe('renderPlanText and checks that do not pass', () => {
  const text = renderPlanText(plan, { color: false, mode: 'plan' });

  it('shows a failed warning check once, with its warn mark in the Checks list', () => {
    expect(text).toContain('  warn  Check/soft: quota of ContainerGroups: need at least 101');
    expect(text.match(/need at least 101/g)).toHaveLength(1);
    expect(text).not.toContain('warning: check failed');
  });

  it('keeps the error of a failed error check and every other warning', () => {
    expect(text).toContain('  FAIL  Check/hard: name taken');
    expect(text).toContain('m/check.yaml:12:3: error: check failed: name taken');
    expect(text).toContain('m/web.yaml:9:3: warning: secureValue is a literal secret');
  });
});

describe('renderPlanMarkdown and checks that do not pass', () => {
  const markdown = renderPlanMarkdown(plan, { mode: 'plan' });

  it('shows a failed warning check once, in the Checks table, and keeps the other diagnostics', () => {
    expect(markdown.match(/need at least 101/g)).toHaveLength(1);
    expect(markdown).toContain('m/check.yaml:12:3: error: check failed: name taken');
    expect(markdown).toContain('m/web.yaml:9:3: warning: secureValue is a literal secret');
  });
});
