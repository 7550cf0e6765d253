// Retries and throttling are visible in apply's plain progress lines (CI): one line per throttle, no line per poll.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { groupManifest, moor, workdir, type Cloud } from './harness.js';
import { startCloudProcess } from './processes.js';

describe('throttling in plain progress', () => {
  let cloud: Cloud;
  // One write a second with a burst of 10: twelve creates sent at once meet 429 at least twice. Reads
  // share the limit, so a fast machine may also see a step's read of its group throttled. The cloud runs in
  // a process of its own: in the test's, its first answers (with the remaining-requests headers) reach the
  // client before the last creates leave, and the client's pacing holds those back: no 429 to show.
  beforeAll(async () => {
    cloud = await startCloudProcess({ rateLimit: 1 });
  });
  afterAll(async () => {
    await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
  });

  test('apply prints a line per throttled request (service, method, short path without query string, wait) and none for poll waits', async () => {
    const docs = Array.from({ length: 12 }, (_, i) => groupManifest(`thr-${i}`)).join('---\n');
    const dir = workdir({ 'm/secret.txt': 's', 'm/all.yaml': docs });
    const r = await moor(dir, cloud, ['apply', 'm', '--auto-approve', '--parallelism', '12']);
    expect(r.code, r.stderr).toBe(0);
    const throttled = r.stderr.split('\n').filter((l) => l.startsWith('arm: throttled'));
    expect(throttled.length, r.stderr).toBeGreaterThanOrEqual(1);
    // A throttled request is a create, a read of a group, or a read of a create's operation status (the
    // path short either way): a loaded machine spreads the creates out, and a status read meets the limit.
    for (const line of throttled)
      expect(line).toMatch(
        /^arm: throttled \(429\) on (PUT|GET) \/subscriptions\/…\/(containerGroups\/thr-\d+|operations\/[0-9a-f-]{36}), retrying in \d+\.\d s$/,
      );
    expect(r.stderr).not.toContain('api-version');
    expect(r.stderr).not.toMatch(/poll/i);
    // Twelve steps waiting on one abort signal is the design: no Node warning about listeners.
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
    expect(r.stdout).toContain('Apply complete: 12 created');
  });
});
