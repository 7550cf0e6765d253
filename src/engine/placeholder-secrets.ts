// Values a manifest takes from `${file:}`, or from `${env:NAME}` whose name says it holds a secret
// (DB_PASSWORD, API_KEY, SAS_TOKEN…), are secrets wherever they are used: a field the kind does
// not mark sensitive becomes sensitive for that manifest, so state and saved plans keep it only as
// a salted hash and output shows it as (sensitive). Other environment values (an image tag, a
// region) stay visible, as Terraform shows variables not marked sensitive. Where the resource lives
// (the kind's `addressing`) stays in clear: its recorded id names it anyway, and read and delete need it.
import { isObject, pattern, underPattern, type JsonObject, type JsonPath, type JsonValue } from '../core/json.js';
import { scanReferences, type Reference } from '../core/references.js';
import type { KindDefinition } from '../core/kind.js';
import type { Manifest } from './manifest.js';
import { hashSecret, isHashed, mapSensitive } from './secrets.js';

const cache = new WeakMap<Manifest, readonly string[]>();

/** The kind's sensitive patterns plus the exact paths of this manifest's values from secret sources (isSecretSource). */
export function sensitivePatterns(kind: KindDefinition, manifest: Manifest | undefined): readonly string[] {
  if (!manifest) return kind.sensitive;
  let found = cache.get(manifest);
  if (!found) {
    const addressing = (kind.addressing ?? []).map(pattern);
    const own = placeholderPaths(manifest.spec).filter((p) => !addressing.some((a) => underPattern(p, a)));
    found = [...kind.sensitive, ...own.map(asPattern)];
    cache.set(manifest, found);
  }
  return found;
}

/**
 * The live outputs as state keeps them: a string equal to a secret value of the resolved spec
 * (the service echoes a plain field back) becomes that value's salted hash.
 */
export function scrubOutputs(outputs: JsonObject, resolved: JsonObject, sensitive: readonly string[]): JsonObject {
  const secrets = new Set<string>();
  mapSensitive(resolved, sensitive, (value) => {
    if (typeof value === 'string' && value.length > 0) secrets.add(value);
    return value;
  });
  if (secrets.size === 0) return outputs;
  const scrub = (value: JsonValue): JsonValue => {
    if (typeof value === 'string') return secrets.has(value) ? hashSecret(value) : value;
    if (Array.isArray(value)) return value.map(scrub);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
    return value;
  };
  return scrub(outputs) as JsonObject;
}

/** Words in an environment variable's name that say it holds a secret, anywhere in the name… */
const SECRET_WORDS = /PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|CREDENTIAL|PRIVATE|APIKEY|ACCESSKEY|CONNECTIONSTRING|CONNSTR/i;
/** …and short ones, only as a whole part of it (SSH_KEY, DB_PASS; not MONKEY or PASSENGER). */
const SECRET_PARTS = new Set(['KEY', 'KEYS', 'PASS', 'PWD', 'PW', 'CRED', 'CREDS', 'CERT', 'SAS', 'AUTH', 'SIG', 'SIGNATURE', 'SALT', 'PIN']);

/** Whether a placeholder's value is taken for a secret: every file, and an environment variable named like one. */
export function isSecretSource(ref: Reference): boolean {
  if (ref.type === 'file') return true;
  if (ref.type !== 'env') return false;
  return (
    SECRET_WORDS.test(ref.name) ||
    ref.name
      .toUpperCase()
      .split(/_+/)
      .some((part) => SECRET_PARTS.has(part))
  );
}

/** The paths of strings that take a secret source; one path array is reused while walking (manifests are many). */
function placeholderPaths(value: JsonValue, path: (string | number)[] = [], out: JsonPath[] = []): JsonPath[] {
  if (typeof value === 'string') {
    if (value.includes('${') && scanReferences(value).refs.some(isSecretSource)) out.push([...path]);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => {
      path.push(i);
      placeholderPaths(v, path, out);
      path.pop();
    });
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      path.push(k);
      placeholderPaths(v, path, out);
      path.pop();
    }
  }
  return out;
}

/** A path as a pattern; a key a pattern cannot spell (a slash, a star, empty) becomes `*`: masking more is safe. */
function asPattern(path: JsonPath): string {
  return path
    .map((seg) => {
      const s = String(seg);
      return s.length === 0 || s === '*' || s.includes('/') ? '*' : s;
    })
    .join('/');
}

/** Whether a record's last-applied spec holds a secret in clear (written before moor hashed placeholder values). */
export function holdsSecretsInClear(lastApplied: JsonObject, sensitive: readonly string[]): boolean {
  let clear = false;
  mapSensitive(lastApplied, sensitive, (value) => {
    if (value !== null && !isHashed(value)) clear = true;
    return value;
  });
  return clear;
}
