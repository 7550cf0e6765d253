// Posting a run report: first a message, then updates or thread replies, 405/404 fallbacks, long reports as attachments.
import { describe, expect, test } from 'vitest';
import { chooseDelivery, MAX_TEXT_CHARS, postReport } from '../../src/notify/post-report.js';
import { runReport } from '../../src/notify/run-report.js';
import type { ThreadRecord } from '../../src/notify/notify-threads.js';
import { CARD_CONTENT_TYPE } from '../../src/providers/vendor.js';
import { ServiceError } from '../../src/providers/service-error.js';
import { TARGET, driftChange, fakeConnector, planOf } from './fixtures.js';

const STACK = { id: 'abc123abc123', name: 'ops' };
const NOW = new Date('2030-01-02T03:04:05Z');
const drift = (after = 'Finance') => runReport('drift', STACK, planOf([driftChange('AuthContext/c7', 'Payroll', after)]));

async function firstPost() {
  const c = fakeConnector();
  const first = await postReport(c, TARGET, drift(), undefined, NOW);
  return { c, first, record: first.record! };
}

describe('the first run of a stack', () => {
  test('sends a markdown message from the bot with an adaptive card and remembers its id', async () => {
    const { c, first, record } = await firstPost();
    expect(c.calls.map((x) => x.op)).toEqual(['send']);
    const body = c.calls[0].body;
    expect(body).toMatchObject({ type: 'message', textFormat: 'markdown', from: { id: '28:moor-bot', name: 'moor' }, conversation: { id: '19:ops-alerts' } });
    expect(body.text).toContain('AuthContext/c7');
    expect(body.text).toContain('Drift: 1 resource drifted.');
    expect(body.summary).toContain('moor drift · ops');
    const [att] = body.attachments as { contentType: string; content: Record<string, unknown> }[];
    expect(att.contentType).toBe(CARD_CONTENT_TYPE);
    expect(att.content).toMatchObject({ type: 'AdaptiveCard', version: '1.5' });
    expect(JSON.stringify(att.content)).toContain('"type":"FactSet"');
    expect(first).toMatchObject({ how: 'sent', activityId: '100' });
    expect(record).toMatchObject({ conversationId: '19:ops-alerts', activityId: '100', run: 'drift', updatedAt: NOW.toISOString() });
  });
});

describe('a later run of the same stack', () => {
  test('drift with changed content updates the standing message instead of posting a new one', async () => {
    const { record } = await firstPost();
    const c = fakeConnector();
    const r = await postReport(c, TARGET, drift('Finance team'), record, NOW);
    expect(c.calls.map((x) => [x.op, x.activityId])).toEqual([['update', '100']]);
    expect(c.calls[0].body.id).toBe('100');
    expect(r).toMatchObject({ how: 'updated', activityId: '100' });
    expect(r.record!.contentHash).not.toBe(record.contentHash);
  });

  test('drift with the same content leaves the message alone', async () => {
    const { record } = await firstPost();
    const c = fakeConnector();
    const r = await postReport(c, TARGET, drift(), record, NOW);
    expect(c.calls).toEqual([]);
    expect(r).toEqual({ how: 'unchanged', activityId: '100' });
  });

  test('apply replies in the thread of the standing message and keeps it as the thread root', async () => {
    const { record } = await firstPost();
    const c = fakeConnector();
    const apply = runReport('apply', STACK, planOf([driftChange('AuthContext/c7', 'Payroll', 'Finance')]), [
      { address: 'AuthContext/c7', action: 'update', status: 'done' },
    ]);
    const r = await postReport(c, TARGET, apply, record, NOW);
    expect(c.calls.map((x) => [x.op, x.activityId])).toEqual([['reply', '100']]);
    expect(c.calls[0].body.replyToId).toBe('100');
    expect(r.record).toMatchObject({ activityId: '100', contentHash: record.contentHash });
  });

  test.each([
    ['update', 405, 'cannot edit'],
    ['update', 404, 'gone'],
    ['reply', 405, 'cannot edit'],
  ] as const)('a %s answered %i falls back to a new message and remembers the new id', async (op, status, why) => {
    const { record } = await firstPost();
    const c = fakeConnector({ [op]: status });
    const report = op === 'reply' ? runReport('apply', STACK, planOf([]), []) : drift('Other');
    const r = await postReport(c, TARGET, report, record, NOW);
    expect(c.calls.map((x) => x.op)).toEqual([op, 'send']);
    expect(r.how).toContain(why);
    expect(r.record!.activityId).toBe(r.activityId);
    expect(r.activityId).not.toBe('100');
  });

  test('other errors are not hidden by a fallback: the code and correlation id reach the user', async () => {
    const { record } = await firstPost();
    const c = fakeConnector({ update: 403 });
    const err = await postReport(c, TARGET, drift('Other'), record, NOW).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).message).toContain('correlation id corr-1');
    expect((err as ServiceError).message).toContain('BadSyntax');
  });

  test("an apply's report is never edited: when apply posted the standing message, drift and plan post their own and remember it", async () => {
    const c = fakeConnector();
    const apply = runReport('apply', STACK, planOf([driftChange('AuthContext/c7', 'Payroll', 'Finance')]), [
      { address: 'AuthContext/c7', action: 'update', status: 'done' },
    ]);
    const applied = await postReport(c, TARGET, apply, undefined, NOW);
    expect(applied.record).toMatchObject({ activityId: '100', run: 'apply' });
    const drifted = await postReport(c, TARGET, drift(), applied.record, NOW);
    expect(drifted).toMatchObject({ how: 'sent', activityId: '101', record: { activityId: '101', run: 'drift' } });
    const planned = await postReport(c, TARGET, runReport('plan', STACK, planOf([driftChange('AuthContext/c7', 'Payroll', 'Other')])), drifted.record, NOW);
    expect(planned).toMatchObject({ how: 'updated', activityId: '101' });
    const replied = await postReport(c, TARGET, apply, planned.record, NOW);
    expect(c.calls.map((x) => [x.op, x.activityId])).toEqual([
      ['send', undefined],
      ['send', undefined],
      ['update', '101'],
      ['reply', '101'],
    ]);
    expect(replied.record).toMatchObject({ activityId: '101', run: 'plan' });
  });

  test('a record of another conversation starts a new message there', () => {
    const record: ThreadRecord = { conversationId: '19:old', activityId: '1', contentHash: 'x', run: 'drift', updatedAt: '' };
    expect(chooseDelivery(drift(), record, '19:ops-alerts', 'y')).toEqual({ kind: 'send' });
  });
});

describe('a report too long for one message', () => {
  const many = () => Array.from({ length: 400 }, (_, i) => driftChange(`AuthContext/c${i}`, 'x'.repeat(40), 'y'.repeat(40)));

  test('goes up as a markdown attachment and the message carries the summary and a link', async () => {
    const c = fakeConnector();
    const report = runReport('drift', STACK, planOf(many()));
    const r = await postReport(c, TARGET, report, undefined, NOW);
    expect(c.calls.map((x) => x.op)).toEqual(['upload', 'send']);
    const upload = c.calls[0].body as { name: string; type: string; originalBase64: string };
    expect(upload.type).toBe('text/markdown');
    const full = Buffer.from(upload.originalBase64, 'base64').toString('utf8');
    expect(full.length).toBeGreaterThan(MAX_TEXT_CHARS);
    expect(full).toContain('AuthContext/c399');
    const msg = c.calls[1].body as { text: string; attachments: Record<string, unknown>[] };
    expect(msg.text.length).toBeLessThan(2000);
    expect(msg.text).toContain('Drift: 400 resources drifted.');
    expect(msg.text).toContain('https://connector.example.net/v3/attachments/100/views/original');
    expect(msg.attachments[0]).toEqual({
      contentType: 'text/markdown',
      contentUrl: 'https://connector.example.net/v3/attachments/100/views/original',
      name: upload.name,
    });
    expect(JSON.stringify(msg.attachments[1])).not.toContain('FactSet');
    expect(r.attachmentId).toBe('100');
  });
});
