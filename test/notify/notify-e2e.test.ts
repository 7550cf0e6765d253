// Notifications end to end over HTTP: drift/plan/apply --notify and `notify test` against the local cloud's connector.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import type { LocalCloud } from '../../src/localcloud/server.js';
import { TOKEN, moor, startCloud, tempDir, type CliResult } from '../get/run-cli.js';

interface Activity {
  id: string;
  text: string;
  replyToId?: string;
  history?: unknown[];
  attachments?: { contentType: string; contentUrl?: string; content?: Record<string, unknown> }[];
}

let cloud: LocalCloud;
let cwd: string;
beforeEach(async () => {
  cloud = await startCloud();
  cwd = await tempDir();
});

const auth = { authorization: `Bearer ${TOKEN}` };
const run = (...args: string[]): Promise<CliResult> => moor(args, { cwd, endpoint: cloud.url });

async function writeConfig(conversationId: string): Promise<void> {
  await writeFile(
    join(cwd, 'moor.config.yaml'),
    [
      'notify:',
      `  serviceUrl: ${cloud.url}`,
      `  conversationId: "${conversationId}"`,
      '  bot: {id: "28:moor-bot", name: moor}',
      '  tokenEnv: MOOR_TOKEN',
      '',
    ].join('\n'),
  );
}

/** AuthContext manifests c<first>..c<first+count-1> in ./m, each with the given display name and description. */
async function writeContexts(first: number, count: number, displayName: (id: string) => string, description = '', isAvailable = true): Promise<void> {
  await mkdir(join(cwd, 'm'), { recursive: true });
  const docs = Array.from({ length: count }, (_, i) => {
    const id = `c${first + i}`;
    return [
      'apiVersion: moor/v1',
      'kind: AuthContext',
      'metadata:',
      `  name: ${id}`,
      'spec:',
      `  displayName: ${JSON.stringify(displayName(id))}`,
      `  description: ${JSON.stringify(description || displayName(id))}`,
      `  isAvailable: ${isAvailable}`,
    ].join('\n');
  });
  await writeFile(join(cwd, 'm', 'contexts.yaml'), docs.join('\n---\n') + '\n');
}

/** Changes a reference behind moor's back, so drift finds it. */
async function driftLive(id: string, displayName: string): Promise<void> {
  const res = await fetch(`${cloud.url}/beta/identity/conditionalAccess/authenticationContextClassReferences/${id}`, {
    method: 'PATCH',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ displayName }),
  });
  expect(res.status).toBe(204);
}

/** The conversation as the local cloud keeps it (its local-only read). */
async function activities(conversationId: string): Promise<Activity[]> {
  const res = await fetch(`${cloud.url}/v3/conversations/${encodeURIComponent(conversationId)}/activities`, { headers: auth });
  expect(res.status).toBe(200);
  return ((await res.json()) as { activities: Activity[] }).activities;
}

async function appliedStack(conversationId: string): Promise<void> {
  await writeConfig(conversationId);
  await writeContexts(7, 1, () => 'Payroll');
  const applied = await run('apply', 'm', '--auto-approve');
  expect(applied.code, applied.stderr).toBe(0);
}

describe('drift --notify', () => {
  test('posts one message, updates it when the drift changes, and leaves it alone when it does not', async () => {
    await appliedStack('19:ops-alerts');
    await driftLive('c7', 'Payroll (edited)');
    const first = await run('drift', 'm', '--notify');
    expect(first.code, first.stderr).toBe(2);
    expect(first.stderr).toMatch(/notified conversation 19:ops-alerts \(sent, activity id \S+\)/);
    let posted = await activities('19:ops-alerts');
    expect(posted).toHaveLength(1);
    const [message] = posted;
    expect(message.text).toContain('AuthContext/c7');
    expect(message.text).toContain('Drift: 1 resource drifted.');
    expect(message.attachments?.[0]).toMatchObject({ contentType: 'application/vnd.vendor.card.adaptive', content: { type: 'AdaptiveCard', version: '1.5' } });
    expect(JSON.stringify(message)).not.toContain(TOKEN);

    await driftLive('c7', 'Payroll (edited twice)');
    const second = await run('drift', 'm', '--notify');
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`updated, activity id ${message.id}`);
    posted = await activities('19:ops-alerts');
    expect(posted).toHaveLength(1);
    expect(posted[0].text).toContain('Payroll (edited twice)');
    expect(posted[0].history).toHaveLength(1);

    const third = await run('drift', 'm', '--notify');
    expect(third.stderr).toContain('not posted');
    expect(await activities('19:ops-alerts')).toHaveLength(1);
  });

  test('says what the terminal says when drift cannot compare: unverified manifests counted, missing state a failure, never "No drift"', async () => {
    await appliedStack('19:ops-alerts');
    await writeContexts(7, 2, () => 'Payroll');
    const partial = await run('drift', 'm', '--notify');
    expect(partial.code, partial.stderr).toBe(0);
    expect(partial.stdout).toContain('No drift found, but 1 unverified (not in state)');
    let posted = await activities('19:ops-alerts');
    expect(posted.at(-1)!.text).toContain('No drift found, but 1 unverified (not in state): drift cannot tell whether it moved.');

    await driftLive('c7', 'Payroll (edited)');
    const lost = await run('drift', 'm', '--notify', '--state', 'elsewhere/state.json');
    expect(lost.code).toBe(1);
    expect(lost.stdout).toContain('Drift check failed: 1 error');
    posted = await activities('19:ops-alerts');
    const message = posted.at(-1)!;
    expect(message.text).toContain('Drift check failed: 1 error — state elsewhere/state.json holds no resources');
    expect(message.text).not.toContain('No drift');
  });

  test('on a channel that cannot edit (405) a new message is posted and remembered instead', async () => {
    await appliedStack('19:noedit-alerts');
    await driftLive('c7', 'one');
    expect((await run('drift', 'm', '--notify')).code).toBe(2);
    await driftLive('c7', 'two');
    const second = await run('drift', 'm', '--notify');
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toMatch(/sent \(the channel cannot edit or thread messages: 405\)/);
    const posted = await activities('19:noedit-alerts');
    expect(posted).toHaveLength(2);
    expect(posted[1].text).toContain('"two"');
    // The new message is the one remembered: an unchanged third run finds it and posts nothing.
    const third = await run('drift', 'm', '--notify');
    expect(third.stderr).toContain(`not posted: message ${posted[1].id}`);
    expect(await activities('19:noedit-alerts')).toHaveLength(2);
  });
});

describe('apply --notify and plan --notify', () => {
  test("apply replies in the thread of the stack's standing message", async () => {
    await appliedStack('19:ops-alerts');
    await driftLive('c7', 'edited');
    await run('drift', 'm', '--notify');
    const [standing] = await activities('19:ops-alerts');
    const applied = await run('apply', 'm', '--auto-approve', '--notify');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain('replied');
    const posted = await activities('19:ops-alerts');
    expect(posted).toHaveLength(2);
    expect(posted[1].replyToId).toBe(standing.id);
    expect(posted[1].text).toMatch(/Apply: 1 done, 0 failed, 0 skipped\./);
  });

  test("when apply posted first, drift posts its own message instead of editing apply's report; later runs edit that one and apply replies in its thread", async () => {
    await writeConfig('19:ops-alerts');
    await writeContexts(7, 1, () => 'Payroll');
    const applied = await run('apply', 'm', '--auto-approve', '--notify');
    expect(applied.code, applied.stderr).toBe(0);
    const [applyReport] = await activities('19:ops-alerts');
    expect(applyReport.text).toMatch(/Apply: 1 done/);

    await driftLive('c7', 'edited once');
    const first = await run('drift', 'm', '--notify');
    expect(first.code, first.stderr).toBe(2);
    expect(first.stderr).toMatch(/notified conversation 19:ops-alerts \(sent, activity id \S+\)/);
    let posted = await activities('19:ops-alerts');
    expect(posted).toHaveLength(2);
    expect(posted[0]).toMatchObject({ id: applyReport.id, text: applyReport.text });
    expect(posted[0].history ?? []).toHaveLength(0);
    const driftMessage = posted[1];
    expect(driftMessage.text).toContain('Drift: 1 resource drifted.');
    expect(driftMessage.replyToId).toBeUndefined();

    await driftLive('c7', 'edited twice');
    const second = await run('drift', 'm', '--notify');
    expect(second.stderr).toContain(`updated, activity id ${driftMessage.id}`);
    posted = await activities('19:ops-alerts');
    expect(posted).toHaveLength(2);
    expect(posted[0].text).toBe(applyReport.text);
    expect(posted[1].text).toContain('edited twice');

    const reapplied = await run('apply', 'm', '--auto-approve', '--notify');
    expect(reapplied.code, reapplied.stderr).toBe(0);
    expect(reapplied.stderr).toContain('replied');
    posted = await activities('19:ops-alerts');
    expect(posted).toHaveLength(3);
    expect(posted[2].replyToId).toBe(driftMessage.id);
  });

  test('apply --refresh-only --notify posts its report (it posted nothing): what was accepted into state, nothing live changed', async () => {
    await appliedStack('19:ops-alerts');
    await driftLive('c7', 'edited');
    const refreshed = await run('apply', 'm', '--auto-approve', '--refresh-only', '--notify');
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stderr).toMatch(/notified conversation 19:ops-alerts \(sent, activity id \S+\)/);
    const [message] = await activities('19:ops-alerts');
    expect(message.text).toContain('Refresh: 1 accepted from live into state, 0 gone and forgotten; nothing live was changed.');
    expect(message.text).toContain('AuthContext/c7** refresh: done');
  });

  test('a plan too long for one message goes up as an attachment the message links to', async () => {
    await writeConfig('19:ops-alerts');
    await writeContexts(10, 90, () => 'short');
    expect((await run('apply', 'm', '--auto-approve')).code).toBe(0);
    const long = 'a rather long text that makes the plan too long for one chat message '.repeat(3);
    // Three changed fields on each of 90 references: well over 20,000 characters of report.
    await writeContexts(10, 90, (id) => `${id} ${long}`, `described: ${long}`, false);
    const planned = await run('plan', 'm', '--notify');
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toMatch(/full report went up as attachment \S+/);
    const [message] = await activities('19:ops-alerts');
    expect(message.text.length).toBeLessThan(2000);
    expect(message.text).toContain('Plan: 0 to create, 90 to update');
    const link = message.attachments?.find((a) => a.contentType === 'text/markdown')?.contentUrl;
    expect(link).toMatch(/\/v3\/attachments\/[^/]+\/views\/original$/);
    const full = await fetch(link!, { headers: auth });
    expect(full.status).toBe(200);
    const report = await full.text();
    expect(report.length).toBeGreaterThan(20_000);
    for (const id of ['c10', 'c55', 'c99']) expect(report).toContain(`AuthContext/${id}**`);
  });
});

describe('moor notify test', () => {
  test('sends a test message and prints its activity id', async () => {
    await writeConfig('19:ops-alerts');
    const r = await run('notify', 'test');
    expect(r.code, r.stderr).toBe(0);
    const [message] = await activities('19:ops-alerts');
    expect(r.stdout.trim()).toBe(message.id);
    expect(message.text).toContain('moor test message');
  });

  test('without a notify: section it exits 1 and says what to add', async () => {
    const r = await run('notify', 'test');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/notifications need a notify: section in moor\.config\.yaml/);
  });

  test('the example of a notify: section is printed as lines of YAML, not with escaped newlines', async () => {
    const r = await run('notify', 'test');
    expect(r.stderr).not.toContain('\\n');
    expect(r.stderr).toContain('for example:\n  notify:\n    serviceUrl: https://connector.example.net/\n');
  });

  test('a connector error shows its code and X-Correlating-OperationId', async () => {
    await writeConfig('19:no-such-conversation');
    const r = await run('notify', 'test');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/404 ConversationNotFound: .*X-Correlating-OperationId: \S+/);
    expect(r.stderr).not.toContain(TOKEN);
  });
});
