// The https certificate of a local cloud without a data file is made for that run alone, in a temporary
// folder with its key: the cloud removes the folder when it stops. Beside a data file it is kept.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLocalCloud } from '../../src/localcloud/server.js';

describe('the local cloud certificate folder', () => {
  it('without a data file, the folder of the certificate and its key is removed when the cloud stops', async () => {
    const cloud = await startLocalCloud({ port: 0, tls: true });
    const folder = dirname(cloud.certFile!);
    expect(existsSync(join(folder, 'local-cloud-key.pem'))).toBe(true);
    await cloud.close();
    expect(existsSync(folder)).toBe(false);
  });

  it('beside a data file, the certificate stays for the next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'moor-tls-kept-'));
    try {
      const cloud = await startLocalCloud({ port: 0, tls: true, dataFile: join(dir, 'cloud.json') });
      await cloud.close();
      expect(existsSync(cloud.certFile!)).toBe(true);
      expect(dirname(cloud.certFile!)).toBe(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
