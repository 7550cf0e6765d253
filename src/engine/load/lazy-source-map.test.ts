import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseManifestFile } from './parse-manifest-file.js';

const TEXT = `apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: a
spec:
  location: westeurope
---
apiVersion: moor/v1
kind: ContainerGroup
metadata:
  name: b
spec:
  location: northeurope
`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function loaded(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'moor-lazy-source-'));
  dirs.push(dir);
  const path = join(dir, 'groups.yaml');
  writeFileSync(path, text);
  const { documents } = await parseManifestFile(path, 'groups.yaml');
  return { path, documents };
}

describe('positions of a manifest read by the fast reader', () => {
  it('are found in the file read again when a diagnostic asks, the text not kept meanwhile', async () => {
    const { documents } = await loaded(TEXT);
    expect(documents[1].source.locate(['spec', 'location'])).toEqual({ file: 'groups.yaml', line: 13, col: 13 });
    expect(documents[0].source.locate(['metadata', 'name'], 'key')).toEqual({ file: 'groups.yaml', line: 4, col: 3 });
  });

  it("fall back to the file's start once the file changed under the run, rather than name lines that moved", async () => {
    const { path, documents } = await loaded(TEXT);
    writeFileSync(path, `# a comment that moves every line\n${TEXT}`);
    expect(documents[1].source.locate(['spec', 'location'])).toEqual({ file: 'groups.yaml', line: 1, col: 1 });
  });
});
