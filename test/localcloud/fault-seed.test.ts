// --fault-seed: the same seed gives the same fault answers in the same order, so a failing fault run replays.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/diagnostics.js';
import { localCloudOptions } from '../../src/localcloud/cli-options.js';
import { planFault, seededRandom } from '../../src/localcloud/faults.js';
import type { LocalService } from '../../src/localcloud/types.js';
import { call, cloud } from './helpers.js';

const BIN = join(resolve(import.meta.dirname, '../..'), 'bin/moor.js');

/** A service whose PUT always succeeds when it runs, so any other answer is an injected fault. */
const echo: LocalService = {
  name: 'analytics',
  routes: [{ method: 'PUT', path: '/echo', handler: () => ({ status: 200, body: {} }) }],
  errorBody: (_s, code, message) => ({ error: { code, message } }),
};

/** The answers of `count` requests made one after another: a status, or 'dropped'. */
async function answers(url: string, count: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(
      await call(`${url}/echo`, { method: 'PUT', body: {} }).then(
        (r) => String(r.status),
        () => 'dropped',
      ),
    );
  }
  return out;
}

describe('seeded fault injection', () => {
  it('gives the same numbers for the same seed and different ones for another', () => {
    const draw = (seed: number) => {
      const r = seededRandom(seed);
      return Array.from({ length: 20 }, r);
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    expect(draw(7).every((n) => n >= 0 && n < 1)).toBe(true);
  });

  it('plans the same faults for the same seed', () => {
    const plans = (seed: number) => {
      const r = seededRandom(seed);
      return Array.from({ length: 50 }, () => planFault(0.5, true, r));
    };
    expect(plans(9)).toEqual(plans(9));
    expect(plans(9)).not.toEqual(plans(10));
  });

  it('answers the same sequence of faults from two clouds with the same seed, another with another seed', async () => {
    const a = await cloud({ failRate: 0.5, faultSeed: 1234 }, [echo]);
    const b = await cloud({ failRate: 0.5, faultSeed: 1234 }, [echo]);
    const c = await cloud({ failRate: 0.5, faultSeed: 4321 }, [echo]);
    const first = await answers(a.url, 30);
    expect(new Set(first).size).toBeGreaterThan(2); // successes and several kinds of fault
    expect(await answers(b.url, 30)).toEqual(first);
    expect(await answers(c.url, 30)).not.toEqual(first);
  });
});

describe('--fault-seed and MOOR_FAULT_SEED', () => {
  it('reads the seed from the flag, else from the variable', () => {
    expect(localCloudOptions({ faultSeed: '17' }, { MOOR_FAULT_SEED: '5' }).faultSeed).toBe(17);
    expect(localCloudOptions({}, { MOOR_FAULT_SEED: '5' }).faultSeed).toBe(5);
  });

  it('picks a seed when faults are on and none is given, and none when faults are off', () => {
    const seed = localCloudOptions({ failRate: '0.2' }, {}).faultSeed;
    expect(Number.isInteger(seed)).toBe(true);
    expect(localCloudOptions({}, {}).faultSeed).toBeUndefined();
  });

  it.each(['-1', '1.5', 'abc', '4294967296'])('refuses the seed %s naming the flag', (raw) => {
    expect(() => localCloudOptions({ faultSeed: raw }, {})).toThrow(UserError);
    expect(() => localCloudOptions({ faultSeed: raw }, {})).toThrow('--fault-seed must be an integer from 0 to 4294967295');
  });

  it('moor local-cloud prints the seed it injects faults with on stderr', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'moor-lc-seed-'));
    const child = spawn(process.execPath, [BIN, 'local-cloud', '--port', '0', '--fail-rate', '0.3'], {
      cwd: dir,
      env: { ...process.env, MOOR_FAULT_SEED: '99' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exit = new Promise<void>((res) => child.once('exit', () => res()));
    const seedLine = new Promise<string>((res, rej) => {
      createInterface({ input: child.stderr }).on('line', (line) => {
        if (line.includes('seed')) res(line);
      });
      child.once('exit', (code) => rej(new Error(`exited ${code} before printing the seed`)));
    });
    try {
      expect(await seedLine).toBe('local cloud: injecting faults at rate 0.3, seed 99 (--fault-seed 99 replays them)');
    } finally {
      child.kill('SIGTERM');
      await exit;
    }
  });
});
