// --output github: annotations for diagnostics and the markdown report in $GITHUB_STEP_SUMMARY.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { authManifest, moor, workdir, INVALID_AUTH_CONTEXT } from '../e2e/harness.js';

function inActions(dir: string): NodeJS.ProcessEnv {
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, '');
  return { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
}

describe('GitHub Actions output', () => {
  test('validate writes an annotation at each problem and a failed summary', async () => {
    const dir = workdir({ 'm/bad.yaml': INVALID_AUTH_CONTEXT });
    const env = inActions(dir);
    const r = await moor(dir, undefined, ['validate', 'm', '--output', 'github'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error file=m/bad.yaml,line=6,col=16::spec.displayName: must be a string');
    const summary = readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8');
    expect(summary).toContain('### moor validate');
    expect(summary).toContain('❌ 1 error, 0 warnings');
  });

  test('a plan with an error annotates it and appends the failed plan to the job summary', async () => {
    const dir = workdir({
      'm/c3.yaml': authManifest('c3', { displayName: '${env:MOOR_TEST_NOT_SET}' }),
      'm/c1.yaml': authManifest('c1', { displayName: 'One' }),
    });
    const env = inActions(dir);
    const r = await moor(dir, undefined, ['plan', 'm', '--output', 'github'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error file=m\/c3\.yaml,line=\d+,col=\d+::.*MOOR_TEST_NOT_SET/m);
    expect(r.stdout).toContain('Plan: 1 to create'); // the log keeps the text report
    const summary = readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8');
    expect(summary).toMatch(/### moor plan\n\n\*\*❌ Plan failed: 1 error/);
    expect(summary).toContain('`AuthContext/c1`');
  });

  test('a plan of invalid manifests still reaches the job summary, as failed', async () => {
    const dir = workdir({ 'm/bad.yaml': INVALID_AUTH_CONTEXT });
    const env = inActions(dir);
    const r = await moor(dir, undefined, ['plan', 'm', '--output', 'github'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error file=m/bad.yaml,line=6,col=16::');
    expect(readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8')).toContain('❌ Plan failed: 1 error');
  });

  test('show --output github prints a saved plan and appends it to the job summary', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    expect((await moor(dir, undefined, ['plan', 'm', '--out', 'p.json'])).code).toBe(0);
    const env = inActions(dir);
    const r = await moor(dir, undefined, ['show', 'p.json', '--output', 'github'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Plan: 1 to create');
    const summary = readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8');
    expect(summary).toContain('### moor plan');
    expect(summary).toContain('`AuthContext/c1`');
  });

  test('apply appends the plan and then the apply summary to the job summary', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    const env = inActions(dir);
    const r = await moor(dir, undefined, ['apply', 'm', '--auto-approve', '--output', 'github'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Apply complete: 1 created'); // the log keeps the text report
    expect(r.stdout).not.toContain('::error');
    const summary = readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8');
    expect(summary).toMatch(/### moor plan[\s\S]*`AuthContext\/c1`[\s\S]*### moor apply\n\n\*\*✅ Apply complete: 1 created/);
  });

  test('apply --refresh-only appends what drifted and then the refresh summary to the job summary', async () => {
    const dir = workdir({ 'm/c1.yaml': authManifest('c1', { displayName: 'One' }) });
    expect((await moor(dir, undefined, ['apply', 'm', '--auto-approve'])).code).toBe(0);
    const env = inActions(dir);
    const r = await moor(dir, undefined, ['apply', 'm', '--auto-approve', '--refresh-only', '--output', 'github'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Refresh complete: 0 accepted from live into state'); // the log keeps the text report
    const summary = readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8');
    expect(summary).toMatch(
      /### moor drift[\s\S]*### moor apply --refresh-only\n\n\*\*✅ Refresh complete: 0 accepted from live into state, 0 gone and forgotten; nothing live was changed\.\*\*/,
    );
  });

  test('an apply of invalid manifests annotates the error and reaches the job summary as failed', async () => {
    const dir = workdir({ 'm/bad.yaml': INVALID_AUTH_CONTEXT });
    const env = inActions(dir);
    const r = await moor(dir, undefined, ['apply', 'm', '--auto-approve', '--output', 'github'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error file=m/bad.yaml,line=6,col=16::');
    const summary = readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8');
    expect(summary).toContain('### moor apply');
    expect(summary).toContain('❌ Plan failed: 1 error');
  });

  test('a message with newlines and percent signs is escaped as GitHub requires', async () => {
    const { annotation } = await import('../../src/cli/github-output.js');
    expect(annotation({ severity: 'warning', message: '100% sure\nreally', location: { file: 'a,b:c.yaml', line: 1, col: 2 } }, process.cwd())).toBe(
      '::warning file=a%2Cb%3Ac.yaml,line=1,col=2::100%25 sure%0Areally',
    );
    expect(annotation({ severity: 'error', message: 'refused', address: 'ContainerGroup/web' }, process.cwd())).toBe('::error::ContainerGroup/web: refused');
  });

  test('a repository made while the process runs places the next annotations from its root', async () => {
    const { annotation } = await import('../../src/cli/github-output.js');
    const dir = workdir({ 'sub/m/x.yaml': '' });
    const bad = { severity: 'error' as const, message: 'bad', location: { file: 'm/x.yaml', line: 1, col: 2 } };
    annotation(bad, join(dir, 'sub'));
    mkdirSync(join(dir, '.git'));
    expect(annotation(bad, join(dir, 'sub'))).toBe('::error file=sub/m/x.yaml,line=1,col=2::bad');
  });
});
