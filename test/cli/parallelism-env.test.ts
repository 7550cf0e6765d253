// A bad MOOR_PARALLELISM is named as the variable the user set, not as the --parallelism flag they did not give.
import { expect, test } from 'vitest';
import { moor, workdir } from '../e2e/harness.js';

const noMoorEnv = Object.fromEntries(
  Object.keys(process.env)
    .filter((k) => k.startsWith('MOOR_'))
    .map((k) => [k, undefined]),
);

test('apply with MOOR_PARALLELISM=abc names MOOR_PARALLELISM', async () => {
  const r = await moor(workdir(), undefined, ['apply', 'm', '--auto-approve'], { ...noMoorEnv, MOOR_PARALLELISM: 'abc' });
  expect(r.code).toBe(1);
  expect(r.stderr).toBe("error: MOOR_PARALLELISM must be a positive integer, not 'abc'\n");
});

test('plan reads MOOR_PARALLELISM through the same one check (the config reads it for every command)', async () => {
  const r = await moor(workdir(), undefined, ['plan', 'm'], { ...noMoorEnv, MOOR_PARALLELISM: '0' });
  expect(r.code).toBe(1);
  expect(r.stderr).toBe("error: MOOR_PARALLELISM must be a positive integer, not '0'\n");
});
