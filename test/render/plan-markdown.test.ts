// The markdown renderer: golden renderings for a PR comment, and escaping of what users write.
import { describe, expect, it } from 'vitest';
import { renderPlanMarkdown } from '../../src/engine/render/index.js';
import { codeBlock, codeSpan, inlineText } from '../../src/engine/render/markdown-escape.js';
import { driftPlan, noChangePlan, representativePlan } from './sample-plans.js';

describe('renderPlanMarkdown', () => {
  it('renders the representative plan', async () => {
    await expect(renderPlanMarkdown(representativePlan, { mode: 'plan' })).toMatchFileSnapshot('golden/plan.md');
  });

  it('renders a plan without changes', async () => {
    const md = renderPlanMarkdown(noChangePlan, { mode: 'plan', title: 'Plan for <prod>' });
    await expect(md).toMatchFileSnapshot('golden/no-changes.md');
    expect(md).toContain('### Plan for &lt;prod&gt;');
  });

  it('renders a drift report with only drifted fields', async () => {
    const md = renderPlanMarkdown(driftPlan, { mode: 'drift' });
    await expect(md).toMatchFileSnapshot('golden/drift.md');
    expect(md).toContain('**Drift: 2 resources drifted.**');
    expect(md).not.toContain('nginx');
    expect(md).not.toContain('leaked?');
  });

  it('never shows a sensitive value', () => {
    expect(renderPlanMarkdown(representativePlan, { mode: 'plan' })).toContain('- (sensitive)\n+ (sensitive)');
    expect(renderPlanMarkdown(driftPlan, { mode: 'drift' })).not.toMatch(/leaked|never/);
  });

  it('keeps every table row to four cells whatever the values hold', () => {
    const md = renderPlanMarkdown(representativePlan, { mode: 'plan' });
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Result'));
    for (const row of rows.filter((r) => r.includes('ContainerGroup/'))) {
      expect(row.replace(/\\\|/g, '').split('|').length - 2).toBe(4);
    }
  });
});

describe('markdown escaping', () => {
  it.each([
    ['a pipe', 'a|b', 'a\\|b'],
    ['HTML', '<script>&', '&lt;script&gt;&amp;'],
    ['emphasis and code', '*x* `y`', '\\*x\\* \\`y\\`'],
    ['a new line, shown as an escape', 'a\nb', 'a\\\\nb'],
  ])('inline text escapes %s', (_why, input, want) => expect(inlineText(input)).toBe(want));

  it.each([
    ['plain text', 'abc', '`abc`'],
    ['a backtick inside', 'a`b', '``a`b``'],
    ['a leading backtick', '`a', '`` `a ``'],
    ['a pipe in a table', 'a|b', '`a\\|b`'],
  ])('a code span holds %s literally', (_why, input, want) => expect(codeSpan(input)).toBe(want));

  it('fences a code block longer than any backtick run inside', () => {
    expect(codeBlock('diff', ['+ "```"'])).toBe('````diff\n+ "```"\n````');
  });
});
