// The local cloud's https certificate: self-signed, generated offline on first use and kept beside
// the data file, so clients trust it with NODE_EXTRA_CA_CERTS=<certFile>.
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
  /** Where the certificate (PEM) is, for NODE_EXTRA_CA_CERTS. */
  readonly certFile: string;
  /** The temporary folder made for the certificate and its key (no data file): the cloud removes it when it stops. */
  readonly temporaryFolder?: string;
}

const VALID_DAYS = 825;
/** A certificate this close to its end is replaced. */
const RENEW_BEFORE_MS = 7 * 24 * 3600 * 1000;

/** Files of the certificate and key: beside the data file, or in a new temporary folder (named as temporaryFolder). */
export function certificatePaths(dataFile: string | undefined): { certFile: string; keyFile: string; temporaryFolder?: string } {
  const temporaryFolder = dataFile ? undefined : mkdtempSync(join(tmpdir(), 'moor-local-cloud-tls-'));
  const dir = temporaryFolder ?? dirname(resolve(dataFile ?? ''));
  return { certFile: join(dir, 'local-cloud-cert.pem'), keyFile: join(dir, 'local-cloud-key.pem'), temporaryFolder };
}

/** The kept certificate when it still serves `host`, else a new one written in its place. */
export async function loadOrCreateCertificate(dataFile: string | undefined, host: string): Promise<TlsMaterial> {
  const { certFile, keyFile, temporaryFolder } = certificatePaths(dataFile);
  if (existsSync(certFile) && existsSync(keyFile)) {
    const cert = readFileSync(certFile, 'utf8');
    if (stillServes(cert, host)) return { cert, key: readFileSync(keyFile, 'utf8'), certFile };
  }
  const made = await generate(host);
  mkdirSync(dirname(certFile), { recursive: true });
  writeFileSync(keyFile, made.key, { mode: 0o600 });
  writeFileSync(certFile, made.cert);
  return { ...made, certFile, temporaryFolder };
}

function stillServes(pem: string, host: string): boolean {
  try {
    const x = new X509Certificate(pem);
    if (Date.parse(x.validTo) - Date.now() < RENEW_BEFORE_MS) return false;
    return x.checkHost(host) !== undefined || x.checkIP(host) !== undefined;
  } catch {
    return false;
  }
}

/** Names the certificate covers: loopback always, and the listening host when it is another. */
function altNames(host: string): ({ type: 2; value: string } | { type: 7; ip: string })[] {
  const names: ({ type: 2; value: string } | { type: 7; ip: string })[] = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
    { type: 7, ip: '::1' },
  ];
  const isIp = /^[\d.]+$/.test(host) || host.includes(':');
  if (host !== 'localhost' && host !== '127.0.0.1' && host !== '::1' && host !== '0.0.0.0' && host !== '::') {
    names.push(isIp ? { type: 7, ip: host } : { type: 2, value: host });
  }
  return names;
}

async function generate(host: string): Promise<{ cert: string; key: string }> {
  // Loaded only with --tls: plain runs never pay for it.
  const { generate: selfSigned } = await import('selfsigned');
  const notBeforeDate = new Date(Date.now() - 60_000);
  const pems = await selfSigned([{ name: 'commonName', value: 'moor local cloud' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + VALID_DAYS * 24 * 3600 * 1000),
    // Its own trust anchor: a CA certificate that also serves https.
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: altNames(host) },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
