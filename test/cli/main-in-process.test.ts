// main(argv, io) is the CLI as a library: runs in one process read and write only through their io
// host, so two of them give what two `moor` processes give, and leave the process as it was.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authManifest, groupManifest, startCloud, workdir, type Cloud } from '../e2e/harness.js';
import { moorProcess } from '../e2e/processes.js';
import { moorInProcess } from '../support/main-in-process.js';

const SECRET = 'in-process-secret-4711';

let cloud: Cloud;
beforeAll(async () => {
  cloud = await startCloud();
});
afterAll(async () => {
  await (cloud as Cloud | undefined)?.stop(); // unset if beforeAll failed
});

/** A folder of manifests: an auth context and a container group with a secret from a file. */
const project = (suffix: string, authId: string) =>
  workdir({
    'm/auth.yaml': authManifest(authId, { displayName: `Library ${suffix}`, isAvailable: true }),
    'm/group.yaml': groupManifest(`lib-${suffix}`),
    'm/secret.txt': SECRET,
  });

describe('main(argv, io)', () => {
  test('two runs in one process give the same exit codes and output as two processes', async () => {
    // Each side plans its own folder (the same names): nothing one side does can change the other's plan.
    const [inside, outside] = [project('same', 'c41'), project('same', 'c41')];
    const runs = [
      ['validate', 'm'],
      ['plan', 'm', '--state', '.moor/state.json'],
      ['plan', 'm', '--output', 'json'],
    ];
    for (const args of runs) {
      const a = await moorInProcess(inside, cloud, args);
      const b = await moorProcess(outside, cloud, args);
      expect({ args, code: a.code, stdout: a.stdout, stderr: a.stderr }).toEqual({ args, code: b.code, stdout: b.stdout, stderr: b.stderr });
    }
  });

  test('a run writes nothing to the process: --no-color stays in the run, secrets are masked in its output', async () => {
    const dir = project('quiet', 'c42');
    const before = process.env.NO_COLOR;
    const writes: string[] = [];
    // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be put back as it was, on process.stdout
    const write = process.stdout.write;
    process.stdout.write = (chunk: string | Uint8Array) => {
      writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    };
    let r;
    try {
      r = await moorInProcess(dir, cloud, ['--no-color', 'apply', 'm', '--auto-approve'], { NO_COLOR: undefined });
    } finally {
      process.stdout.write = write;
    }
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply complete');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(r.stdout).not.toMatch(/\u001b\[/);
    expect(process.env.NO_COLOR).toBe(before);
    expect(writes.join('')).not.toContain('lib-quiet');
  });

  test("one run's secrets are no secrets of the next, and a saved plan is read from the run's folder, as two processes do", async () => {
    // The first run applies a group whose secureValue is SECRET: its own output masks it.
    const applied = await moorInProcess(project('secret', 'c44'), cloud, ['apply', 'm', '--auto-approve']);
    expect(applied.code).toBe(0);
    expect(applied.stdout + applied.stderr).not.toContain(SECRET);
    // The next runs name that text as an auth context's display name: no secret of theirs, so shown
    // (a masker shared by the runs of one process would print *** where a process prints the text).
    const shown = (id: string) => workdir({ 'm/auth.yaml': authManifest(id, { displayName: SECRET, isAvailable: true }) });
    const [inside, outside] = [shown('c45'), shown('c46')];
    // plan --out, show and apply --plan name plan.json relative to the run's folder, not this process's.
    for (const args of [
      ['plan', 'm', '--out', 'plan.json'],
      ['show', 'plan.json'],
      ['apply', '--plan', 'plan.json'],
    ]) {
      const a = await moorInProcess(inside, cloud, args);
      const b = await moorProcess(outside, cloud, args);
      // The same but for the other folder's address and how long each step took.
      const same = (text: string) => text.replaceAll('c46', 'c45').replace(/after \d+\.\ds/g, 'after N s');
      expect({ args, code: a.code, stdout: same(a.stdout), stderr: same(a.stderr) }).toEqual({
        args,
        code: b.code,
        stdout: same(b.stdout),
        stderr: same(b.stderr),
      });
      expect(a.code).toBe(0);
      if (args[0] !== 'apply') expect(a.stdout).toContain(SECRET);
    }
  });

  test("a second run starts clean: the first one's exit code and options do not carry over", async () => {
    const failing = await moorInProcess(workdir({ 'bad.yaml': 'apiVersion: moor/v1\nkind: Nope\n' }), cloud, ['validate', '.']);
    expect(failing.code).toBe(1);
    const dir = project('clean', 'c43');
    const ok = await moorInProcess(dir, cloud, ['validate', 'm']);
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toContain('ok: 2 manifests');
  });
});
