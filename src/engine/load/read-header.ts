// Checks a document's header (apiVersion, kind, metadata) and turns it into a Manifest.
import type { Diagnostic } from '../../core/diagnostics.js';
import { diagnosed, type Diagnosed } from '../../core/diagnosed.js';
import { isObject, type JsonFields, type JsonObject, type JsonPath } from '../../core/json.js';
import { API_VERSION, addressOf, parseAddress, type Manifest, type SourceMap } from '../manifest.js';
import type { KindCatalog } from '../../core/kind-catalog.js';

export const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
const TOP_KEYS = ['apiVersion', 'kind', 'metadata', 'spec'];
const METADATA_KEYS = ['name', 'dependsOn', 'protect', 'movedFrom', 'ignoreChanges'];

/** A mapping as the user wrote it: any field may be missing. */
type Mapping = JsonFields;

/** The Manifest of a document (undefined when its header is too broken to address it) and what is wrong with the header. */
export function readHeader(value: unknown, source: SourceMap, kinds: KindCatalog): Diagnosed<Manifest | undefined> {
  const diagnostics: Diagnostic[] = [];
  const manifest = readValidHeader(value, source, kinds, (path, message, at = 'value') => {
    diagnostics.push({ severity: 'error', message, location: source.locate(path, at), code: 'manifest.header' });
  });
  return diagnosed(manifest, diagnostics);
}

function readValidHeader(value: unknown, source: SourceMap, kinds: KindCatalog, report: HeaderReport): Manifest | undefined {
  if (!isObject(value)) {
    report([], 'a manifest must be a mapping with apiVersion, kind, metadata and spec');
    return undefined;
  }
  unknownKeys(value, [], TOP_KEYS, report);
  const fields: Mapping = value;
  if (fields.apiVersion !== API_VERSION) {
    if (fields.apiVersion === undefined) report([], `missing required field apiVersion (${API_VERSION})`);
    else report(['apiVersion'], `apiVersion: must be ${API_VERSION}`);
  }
  const kind = readKind(fields, report, kinds);
  const metadata = fields.metadata;
  if (!isObject(metadata)) {
    report(metadata === undefined ? [] : ['metadata'], metadata === undefined ? 'missing required field metadata' : 'metadata: must be a mapping');
    return undefined;
  }
  unknownKeys(metadata, ['metadata'], METADATA_KEYS, report);
  const name = readName(metadata, report);
  const dependsOn = readDependsOn(metadata, report, kinds);
  const protect = (metadata as Mapping).protect;
  if (protect !== undefined && typeof protect !== 'boolean') report(['metadata', 'protect'], 'metadata.protect: must be true or false');
  if (kind && kinds.documentNamed(kind)) notForDocuments(kind, metadata, report);
  let spec: JsonObject = {};
  if (fields.spec === undefined) report([], 'missing required field spec');
  else if (!isObject(fields.spec)) report(['spec'], 'spec: must be a mapping');
  else spec = fields.spec;
  if (!kind || name === undefined) return undefined;
  const movedFrom = readMovedFrom(metadata, report, addressOf(kind, name));
  const ignoreChanges = readIgnoreChanges(metadata, report);
  return {
    apiVersion: API_VERSION,
    kind,
    name,
    address: addressOf(kind, name),
    dependsOn,
    protect: protect === true,
    spec,
    source,
    ...(movedFrom.length > 0 ? { movedFrom } : {}),
    ...(ignoreChanges.length > 0 ? { ignoreChanges } : {}),
  };
}

type HeaderReport = (path: JsonPath, message: string, at?: 'key' | 'value') => void;

function readKind(value: Mapping, report: HeaderReport, catalog: KindCatalog): string | undefined {
  const kinds = [...catalog.kinds, ...catalog.documents].map((k) => k.kind).join(', ');
  if (value.kind === undefined) {
    report([], `missing required field kind (one of ${kinds})`);
    return undefined;
  }
  if (typeof value.kind !== 'string' || !(catalog.kindNamed(value.kind) || catalog.documentNamed(value.kind))) {
    report(['kind'], `kind: must be one of ${kinds}`);
    return undefined;
  }
  return value.kind;
}

function readName(metadata: Mapping, report: HeaderReport): string | undefined {
  const name = metadata.name;
  if (name === undefined) {
    report(['metadata'], 'metadata: missing required field name', 'key');
    return undefined;
  }
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    report(['metadata', 'name'], 'metadata.name: must be 1 to 128 letters, digits, "-", "_" or "."');
    return undefined;
  }
  return name;
}

function readDependsOn(metadata: Mapping, report: HeaderReport, kinds: KindCatalog): string[] {
  const list = metadata.dependsOn;
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    report(['metadata', 'dependsOn'], 'metadata.dependsOn: must be a list of Kind/name addresses');
    return [];
  }
  const out: string[] = [];
  list.forEach((item, i) => {
    const parsed = typeof item === 'string' ? parseAddress(item) : undefined;
    if (!parsed || !kinds.kindNamed(parsed.kind) || !NAME_PATTERN.test(parsed.name)) {
      report(['metadata', 'dependsOn', i], `metadata.dependsOn[${i}]: must be an address Kind/name with a known kind, e.g. AuthContext/c1`);
    } else {
      out.push(item as string);
    }
  });
  return out;
}

/** A document (a Policy) is never applied: nothing can wait for it and there is nothing to protect. */
function notForDocuments(kind: string, metadata: Mapping, report: HeaderReport): void {
  for (const key of ['dependsOn', 'protect', 'movedFrom', 'ignoreChanges']) {
    if (metadata[key] !== undefined) report(['metadata', key], `metadata.${key}: a ${kind} is not applied, so it takes no ${key}`, 'key');
  }
}

/** metadata.movedFrom: former addresses of this resource (same kind), so a rename plans as a move. */
function readMovedFrom(metadata: Mapping, report: HeaderReport, address: string): string[] {
  const list = metadata.movedFrom;
  if (list === undefined) return [];
  const kind = address.slice(0, address.indexOf('/'));
  if (!Array.isArray(list)) {
    report(['metadata', 'movedFrom'], `metadata.movedFrom: must be a list of former addresses, e.g. [${kind}/old-name]`);
    return [];
  }
  const out: string[] = [];
  list.forEach((item, i) => {
    const parsed = typeof item === 'string' ? parseAddress(item) : undefined;
    if (parsed?.kind !== kind || !NAME_PATTERN.test(parsed.name)) {
      report(['metadata', 'movedFrom', i], `metadata.movedFrom[${i}]: must be a former address of this ${kind}, ${kind}/NAME (a move keeps its kind)`);
    } else if (item === address) {
      report(['metadata', 'movedFrom', i], `metadata.movedFrom[${i}]: ${address} is this resource's own address`);
    } else {
      out.push(item as string);
    }
  });
  return out;
}

/** metadata.ignoreChanges: field paths another system owns (checked against the kind's schema by validation). */
function readIgnoreChanges(metadata: Mapping, report: HeaderReport): string[] {
  const list = metadata.ignoreChanges;
  if (list === undefined) return [];
  if (!Array.isArray(list) || !list.every((p) => typeof p === 'string')) {
    report(['metadata', 'ignoreChanges'], 'metadata.ignoreChanges: must be a list of field paths as plan prints them, e.g. [/tags/*]');
    return [];
  }
  return list;
}

function unknownKeys(obj: JsonObject, path: JsonPath, allowed: readonly string[], report: HeaderReport): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      const where = path.length > 0 ? `${path.join('.')}.${key}` : key;
      report([...path, key], `${where}: unknown field (allowed: ${allowed.join(', ')})`, 'key');
    }
  }
}
