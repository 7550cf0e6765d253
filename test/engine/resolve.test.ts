// Placeholders substitute literally, and `${file:}` reads only regular files under the manifests' root.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadManifests } from '../../src/engine/load/index.js';
import type { FilePolicy } from '../../src/engine/placeholder-file.js';
import { resolveSpec } from '../../src/engine/resolve.js';
import { BUILT_IN_KINDS } from '../../src/resources/registry.js';

/** A folder with `project/m.yaml` (an AuthContext whose description is `value`) and `extra` files. */
function project(value: string, extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'moor-resolve-'));
  const files = {
    'project/m.yaml': `apiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: c1\nspec:\n  displayName: one\n  description: ${value}\n`,
    ...extra,
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function resolveIn(dir: string, options: { env?: NodeJS.ProcessEnv; files?: FilePolicy; path?: string } = {}) {
  const loaded = await loadManifests([join(dir, options.path ?? 'project')], BUILT_IN_KINDS, { cwd: process.cwd() });
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const resolved = resolveSpec(loaded.manifests[0], { env: options.env ?? {}, files: options.files, outputs: () => undefined });
  return {
    description: resolved.spec.description,
    errors: resolved.diagnostics.map((d) => ({ message: d.message, line: d.location?.line, col: d.location?.col, file: d.location?.file })),
  };
}

describe('placeholders substitute literally', () => {
  test.each([
    ['$', 'a$b'],
    ['$$', 'pa$$word'],
    ['$&', 'x$&y'],
    ['$1', '$1$2'],
    ['$`', "$`$'"],
    ['${', 'a${b'],
    ['a placeholder of its own', '${env:OTHER}'],
    ['the issue case', 'pa$$word$&'],
  ])('an environment value with %s is sent as written, inside a longer string', async (_what, secret) => {
    const dir = project('"pw=${env:PW};"');
    expect((await resolveIn(dir, { env: { PW: secret, OTHER: 'no' } })).description).toBe(`pw=${secret};`);
  });

  test('the same placeholder twice and a file value with $ are each substituted once, in place', async () => {
    const dir = project('"${env:A}-${env:A}-${file:s.txt}"', { 'project/s.txt': '$&${env:A}\n' });
    expect((await resolveIn(dir, { env: { A: '$1' } })).description).toBe('$1-$1-$&${env:A}');
  });
});

describe("${file:} stays inside the manifests' root", () => {
  test('a file under the root is read (trailing newline dropped)', async () => {
    const dir = project('${file:secrets/pw}', { 'project/secrets/pw': 's3cret\n' });
    expect(await resolveIn(dir)).toEqual({ description: 's3cret', errors: [] });
  });

  test('a path from a subfolder back up to the root is inside it', async () => {
    const dir = project('x', {
      'project/sub/m2.yaml': 'apiVersion: moor/v1\nkind: AuthContext\nmetadata:\n  name: c2\nspec:\n  displayName: two\n  description: ${file:../s.txt}\n',
      'project/s.txt': 'up',
    });
    const loaded = await loadManifests([join(dir, 'project')], BUILT_IN_KINDS, { cwd: process.cwd() });
    const m2 = loaded.manifests.find((m) => m.name === 'c2')!;
    expect(resolveSpec(m2, { env: {}, outputs: () => undefined }).spec.description).toBe('up');
  });

  test('files are found from where the manifest is, whatever the working folder at load and at resolve', async () => {
    const dir = project('${file:secrets/pw}', { 'project/secrets/pw': 'from-the-manifest-folder\n', 'deep er/a b/c/d/secrets/pw': 'wrong folder' });
    const start = process.cwd();
    try {
      process.chdir(join(dir, 'deep er/a b/c/d'));
      const loaded = await loadManifests([join(dir, 'project')], BUILT_IN_KINDS, { cwd: process.cwd() });
      process.chdir(tmpdir());
      const resolved = resolveSpec(loaded.manifests[0], { env: {}, outputs: () => undefined });
      expect(resolved.diagnostics).toEqual([]);
      expect(resolved.spec.description).toBe('from-the-manifest-folder');
    } finally {
      process.chdir(start);
    }
  });

  test('../ escaping the root is an error at the placeholder, and nothing is read', async () => {
    const dir = project('${file:../outside.txt}', { 'outside.txt': 'leaked' });
    const r = await resolveIn(dir);
    expect(r.description).toBe('');
    expect(r.errors).toEqual([
      {
        file: expect.stringMatching(/m\.yaml$/),
        line: 7,
        col: 16,
        message: expect.stringContaining("cannot read file ../outside.txt (used by ${file:../outside.txt}): outside the manifests' root"),
      },
    ]);
  });

  test('the error points at the placeholder itself inside a longer string, each occurrence at its own column', async () => {
    const r = await resolveIn(project('"pw=${file:../x};"'));
    expect(r.errors).toEqual([expect.objectContaining({ line: 7, col: 20 })]);
    const twice = await resolveIn(project('"${env:A}-${env:A}"'));
    expect(twice.errors.map((e) => [e.line, e.col, e.message])).toEqual([
      [7, 17, 'environment variable A is not set (used by ${env:A})'],
      [7, 26, 'environment variable A is not set (used by ${env:A})'],
    ]);
  });

  test('an absolute path is an error', async () => {
    const dir = project('${file:/etc/hostname}');
    const r = await resolveIn(dir);
    expect(r.errors).toEqual([expect.objectContaining({ line: 7, col: 16, message: expect.stringContaining('an absolute path is not allowed') })]);
  });

  test('/proc/self/environ is refused, even where outside paths are allowed, and no variable leaks', async () => {
    const dir = project('${file:/proc/self/environ}');
    const env = { MOOR_TOKEN: 'tok-do-not-leak' };
    for (const files of [undefined, { allowOutsideRoot: true }]) {
      const r = await resolveIn(dir, { env, files });
      expect(r.description).toBe('');
      expect(JSON.stringify(r)).not.toContain('PATH=');
      expect(r.errors).toHaveLength(1);
    }
    expect((await resolveIn(dir, { files: { allowOutsideRoot: true } })).errors[0].message).toMatch(/kernel interface, not a file$/);
  });

  test('/dev/zero is refused as a device, without reading it', async () => {
    const dir = project('${file:/dev/zero}');
    expect((await resolveIn(dir, { files: { allowOutsideRoot: true } })).errors[0].message).toMatch(/it is a device; only regular files are read$/);
    expect((await resolveIn(dir)).errors[0].message).toContain('an absolute path is not allowed');
  });

  test('/dev/stdin is refused without waiting for input', async () => {
    const dir = project('${file:/dev/stdin}');
    const r = await resolveIn(dir, { files: { allowOutsideRoot: true } });
    expect(r.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/only regular files are read|kernel interface/) })]);
    expect(r.description).toBe('');
  });

  test('a FIFO under the root is refused without blocking', async () => {
    const dir = project('${file:pipe}');
    execFileSync('mkfifo', [join(dir, 'project/pipe')]);
    expect((await resolveIn(dir)).errors[0].message).toMatch(/it is a FIFO \(named pipe\); only regular files are read$/);
  });

  test('a folder is refused', async () => {
    const dir = project('${file:secrets}', { 'project/secrets/x': 'x' });
    expect((await resolveIn(dir)).errors[0].message).toMatch(/it is a directory/);
  });

  test('a symbolic link under the root that points outside it is refused', async () => {
    const dir = project('${file:link}', { 'outside.txt': 'leaked' });
    symlinkSync(join(dir, 'outside.txt'), join(dir, 'project/link'));
    const r = await resolveIn(dir);
    expect(r.description).toBe('');
    expect(r.errors[0].message).toMatch(/it links to .*outside\.txt, outside the manifests' root/);
  });

  test('a link to a file outside the root that is not there yet names the link, not a missing file', async () => {
    const dir = project('${file:link}');
    symlinkSync(join(dir, 'run-secrets/db'), join(dir, 'project/link'));
    expect((await resolveIn(dir)).errors[0].message).toMatch(/it links to .*run-secrets\/db, outside the manifests' root/);
  });

  test('a file over the size limit (1 MiB by default, or files.maxBytes) is refused', async () => {
    const dir = project('${file:big}', { 'project/big': 'x'.repeat(1024 * 1024 + 1) });
    expect((await resolveIn(dir)).errors[0].message).toMatch(/larger than the limit of 1,048,576 bytes/);
    const small = project('${file:s}', { 'project/s': '12345' });
    expect((await resolveIn(small, { files: { maxBytes: 4 } })).errors[0].message).toMatch(/larger than the limit of 4 bytes/);
    expect((await resolveIn(small, { files: { maxBytes: 5 } })).description).toBe('12345');
  });

  test('a path with a NUL character is refused by name, not by a system error', async () => {
    const dir = project('"${file:a\\0b}"');
    expect((await resolveIn(dir)).errors[0].message).toMatch(/: the path contains a NUL character$/);
  });

  test('a missing file names the file', async () => {
    const dir = project('${file:nope}');
    expect((await resolveIn(dir)).errors[0].message).toBe('cannot read file nope (used by ${file:nope}): no such file');
  });

  test('files.allow admits a file outside the root; files.allowOutsideRoot admits any; files.root moves the root', async () => {
    const dir = project('${file:../shared/ca.pem}', { 'shared/ca.pem': 'CA' });
    expect((await resolveIn(dir)).errors).toHaveLength(1);
    expect((await resolveIn(dir, { files: { allow: [join(dir, 'shared')] } })).description).toBe('CA');
    expect((await resolveIn(dir, { files: { allowOutsideRoot: true } })).description).toBe('CA');
    expect((await resolveIn(dir, { files: { root: dir } })).description).toBe('CA');
  });

  test('a file given by name has its folder as the root', async () => {
    const dir = project('${file:s.txt}', { 'project/s.txt': 'ok' });
    expect((await resolveIn(dir, { path: 'project/m.yaml' })).description).toBe('ok');
  });
});
