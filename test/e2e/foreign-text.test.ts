// Foreign text end to end: a manifest's placeholder insides and tag keys, and a hostile service's
// error code and message, through the built CLI in every format: nothing forges output.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { jsonText } from '../../src/core/foreign-text.js';
import { hostileServer } from '../providers/hostile-server.js';
import { expectNoForgery, HOSTILE } from '../render/foreign-output-checks.js';
import { groupManifest, moor, TOKEN, workdir } from './harness.js';

/** HOSTILE as a YAML double-quoted scalar (JSON is YAML; jsonText escapes what YAML may not hold raw). */
const YAML_HOSTILE = jsonText(HOSTILE);

const taggedGroup = groupManifest('web').replace('  location: westeurope', `  location: westeurope\n  tags: {${YAML_HOSTILE}: ${YAML_HOSTILE}}`);
const badPlaceholder = `apiVersion: moor/v1
kind: AuthContext
metadata:
  name: c1
spec:
  displayName: ${jsonText(`\${env:${HOSTILE}}`)}
  description: ${jsonText(`\${ref:Nope/${HOSTILE}#/id}`)}
`;

/** Runs moor with a job summary file; returns everything it wrote: stdout, stderr and the summary. */
async function run(dir: string, url: string | undefined, args: string[]): Promise<{ code: number; all: string }> {
  const summary = join(mkdtempSync(join(tmpdir(), 'moor-summary-')), 'summary.md');
  writeFileSync(summary, '');
  const env = { GITHUB_STEP_SUMMARY: summary, ...(url ? { MOOR_ENDPOINT: url, MOOR_TOKEN: TOKEN } : {}) };
  const r = await moor(dir, undefined, args, env);
  return { code: r.code, all: r.stdout + r.stderr + readFileSync(summary, 'utf8') };
}

describe('foreign text through the CLI', () => {
  test.each([['text'], ['github'], ['json']])('validate --output %s: placeholder insides forge nothing', async (format) => {
    const dir = workdir({ 'v/c1.yaml': badPlaceholder });
    const r = await run(dir, undefined, ['validate', 'v', '--output', format]);
    expect(r.code).toBe(1);
    expect(r.all).toContain('forged');
    expectNoForgery(r.all);
  });

  test.each([['text'], ['json'], ['markdown'], ['jsonl'], ['github']])(
    'plan and apply --output %s: a tag key and a service error forge nothing',
    async (format) => {
      const service = await hostileServer((req, res) => {
        const refuse = req.method !== 'GET';
        res.writeHead(refuse ? 400 : 404, { 'content-type': 'application/json', 'x-ms-request-id': HOSTILE.replace(/[^ -~]/g, '?') });
        res.end(JSON.stringify({ error: { code: refuse ? HOSTILE : 'ResourceNotFound', message: refuse ? HOSTILE : 'not found', target: HOSTILE } }));
      });
      const dir = workdir({ 'm/web.yaml': taggedGroup, 'm/secret.txt': 's3cret\n' });
      const plan = await run(dir, service.url, ['plan', 'm', '--output', format]);
      expect(plan.all).toContain('forged');
      expectNoForgery(plan.all);
      const applyFormat = format === 'json' || format === 'markdown' ? 'text' : format;
      const apply = await run(dir, service.url, ['apply', 'm', '--auto-approve', '--output', applyFormat]);
      expect(apply.code, apply.all).toBe(1);
      expect(apply.all).toContain('forged');
      expectNoForgery(apply.all);
    },
  );
});
