// The CLI through main(argv, io) in this process (the built bin is the e2e tests'): it validates,
// prints schemas and graphs, with the documented exit codes.
import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';

async function moor(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = memoryIo({ cwd: process.cwd(), env: { ...process.env, NO_COLOR: '1' } });
  const code = await main(['node', 'moor', ...args], io);
  return { code, stdout: io.out(), stderr: io.err() };
}

describe('moor validate', () => {
  test('the examples are valid: exit 0 and an ok line', async () => {
    const r = await moor('validate', 'examples/manifests');
    expect(r).toMatchObject({ code: 0, stdout: 'ok: 10 manifests in 5 files are valid\n' });
  });

  test('a broken set prints every diagnostic at its place, a summary on stderr, and exits 1', async () => {
    const r = await moor('validate', 'test/fixtures/manifests/broken');
    expect(r.code).toBe(1);
    const file = 'test/fixtures/manifests/broken/app.yaml';
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      `${file}:6:15: error: metadata.dependsOn[0]: no manifest defines AuthContext/missing`,
      `${file}:11:13: error: spec.properties.osType: must be one of Windows, Linux`,
      `${file}:18:28: warning: spec.properties.containers[0].properties.environmentVariables[0].secureValue: a secret written in the manifest; use \${env:NAME} or \${file:path}`,
      `${file}:29:5: error: spec.spend.maximum: unknown field (allowed: billingAccountName, invoiceName, max)`,
      'test/fixtures/manifests/broken/broken.yaml:6:1: error: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
    expect(r.stderr).toBe('4 errors, 1 warning in 2 files\n');
    expect(r.stdout).not.toContain('hunter2');
  });

  test('--output json gives the same diagnostics as a JSON array', async () => {
    const r = await moor('validate', '--output', 'json', 'test/fixtures/manifests/broken');
    expect(r.code).toBe(1);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows).toHaveLength(5);
    expect(rows[1]).toEqual({
      file: 'test/fixtures/manifests/broken/app.yaml',
      line: 11,
      col: 13,
      severity: 'error',
      message: 'spec.properties.osType: must be one of Windows, Linux',
    });
  });

  test('a missing path is an error, not a stack trace', async () => {
    const r = await moor('validate', 'no/such/dir');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('error: no/such/dir: no such file or directory\n');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('moor schema and moor graph', () => {
  test('schema prints a JSON Schema choosing the spec by kind', async () => {
    const r = await moor('schema');
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout) as { allOf: unknown[]; properties: { kind: { enum: string[] } } };
    expect(schema.properties.kind.enum).toEqual(['ContainerGroup', 'AuthContext', 'PushDataset', 'DatabaseRefresh', 'DatabaseExport', 'Check', 'Policy']);
    expect(schema.allOf).toHaveLength(7);
  });

  test('schema Policy prints the Policy document: match, severity, rules, tests; no dependsOn', async () => {
    const r = await moor('schema', 'Policy');
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout);
    expect(schema.properties.kind.enum).toEqual(['Policy']);
    expect(Object.keys(schema.properties.spec.properties)).toEqual(['match', 'severity', 'rules', 'tests']);
    expect(schema.properties.spec.properties.rules.items.required).toEqual(['expression']);
    expect(Object.keys(schema.properties.metadata.properties)).toEqual(['name']);
  });

  test('schema KIND prints one kind; an unknown kind exits 1 with a message', async () => {
    expect(JSON.parse((await moor('schema', 'Check')).stdout).properties.kind.enum).toEqual(['Check']);
    const bad = await moor('schema', 'Nope');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('unknown kind Nope');
  });

  test('graph prints Mermaid by default and DOT on request', async () => {
    const mermaid = await moor('graph', 'examples/manifests');
    expect(mermaid.code).toBe(0);
    expect(mermaid.stdout).toContain('flowchart LR');
    const dot = await moor('graph', '--format', 'dot', 'examples/manifests');
    expect(dot.stdout).toContain('"AuthContext/c1" -> "ContainerGroup/web";');
    expect(dot.stdout).toContain('"PushDataset/sales" -> "ContainerGroup/worker";');
  });
});
