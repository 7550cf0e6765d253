// Resolves ${env:}, ${file:} and ${ref:} placeholders of a manifest's spec for plan and apply.
import type { SecretRegistry } from '../core/masker.js';
import { dirname } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { fromPointer, getAt, isObject, type JsonObject, type JsonPath, type JsonValue } from '../core/json.js';
import type { Manifest } from './manifest.js';
import { readPlaceholderFile, type FilePolicy } from './placeholder-file.js';
import { scanReferences, type Reference } from '../core/references.js';
import { locatePlaceholder } from './load/placeholder-location.js';
import { UNKNOWN_SENTINEL } from './unknown.js';
import { ADOPTED_SECRET, isHashed } from './secrets.js';
import { filledTypeAt, typedText } from './placeholder-types.js';
import { fieldPath } from '../core/field-path.js';

/** Stands for a value another resource gets only once it is applied (a sentinel; plans show a marker). */
export const KNOWN_AFTER_APPLY = UNKNOWN_SENTINEL;

export interface ResolveContext {
  readonly env: NodeJS.ProcessEnv;
  /** Where `${file:}` may read (the `files` key of moor.config.yaml). */
  readonly files?: FilePolicy;
  /** The live outputs of an applied resource, or undefined while it is not applied yet. */
  outputs(address: string): JsonObject | undefined;
  /** The run's masker: the resolved values of sensitive fields are registered there (secret-registration.ts). */
  readonly secrets?: SecretRegistry;
  /**
   * Whether the value at a spec path is a secret state records as adopted and never seen (moor
   * discover): a `${env:}` there that is not set stands for it (ADOPTED_SECRET) instead of an error.
   * Plan asks this; apply does not, so no write ever sends the marker.
   */
  adopted?(path: JsonPath): boolean;
}

export interface ResolvedSpec {
  readonly spec: JsonObject;
  readonly diagnostics: Diagnostic[];
  /** Some `${ref:}` could not be resolved yet (its target is not applied). */
  readonly pending: boolean;
}

/**
 * Where the `${file:}` paths of the spec value at `specPath` start (the folder of the file that set
 * it: an overlay's own, for a value an overlay set) and must stay under (that file's root);
 * validate checks the same. Both come from absolute paths, never from a working folder: a library
 * caller whose cwd differs from the CLI's reads the same files. `file`: where the placeholder is written.
 */
export function placeholderFolders(
  manifest: Manifest,
  files: FilePolicy | undefined,
  specPath: JsonPath,
): { readonly baseDir: string; readonly root: string; readonly file: string } {
  const origin = manifest.source.originAt?.(['spec', ...specPath]);
  const file = origin?.path ?? manifest.source.path;
  const baseDir = dirname(file);
  return { baseDir, root: files?.root ?? origin?.root ?? manifest.root ?? baseDir, file };
}

/** The file (absolute) that holds the value at `docPath` (from the document root), where its placeholders are written. */
export function valueFile(manifest: Manifest, docPath: JsonPath): string {
  return manifest.source.originAt?.(docPath).path ?? manifest.source.path;
}

/**
 * `schema`: the kind's spec schema; a `${env:}` or `${file:}` that is the whole value of a number
 * or boolean field then takes the field's type.
 */
export function resolveSpec(manifest: Manifest, ctx: ResolveContext, schema?: JsonObject): ResolvedSpec {
  const diagnostics: Diagnostic[] = [];
  let pending = false;
  const fail = (path: JsonPath, message: string, ref: Reference, refs: readonly Reference[]) => {
    const valueAt = manifest.source.locate(['spec', ...path]);
    const nth = refs.filter((r) => r.raw === ref.raw && r.index < ref.index).length;
    diagnostics.push({
      severity: 'error',
      message,
      location: locatePlaceholder(valueAt, ref.raw, nth, valueFile(manifest, ['spec', ...path])),
      address: manifest.address,
    });
  };

  const substitute = (value: string, path: JsonPath): JsonValue => {
    const { refs } = scanReferences(value);
    if (refs.length === 0) return value;
    const failures = diagnostics.length;
    const parts = refs.map((ref): JsonValue => {
      if (ref.type === 'env') {
        const v = ctx.env[ref.name];
        if (v === undefined && refs.length === 1 && ref.raw === value && ctx.adopted?.(path)) return ADOPTED_SECRET;
        if (v === undefined) {
          fail(path, `environment variable ${ref.name} is not set (used by ${ref.raw})`, ref, refs);
          return '';
        }
        return v;
      }
      if (ref.type === 'file') {
        const { baseDir, root } = placeholderFolders(manifest, ctx.files, path);
        const read = readPlaceholderFile(ref.path, baseDir, root, ctx.files);
        if (read.ok) return read.text.replace(/\r?\n$/, '');
        fail(path, `cannot read file ${ref.path} (used by ${ref.raw}): ${read.message}`, ref, refs);
        return '';
      }
      const outputs = ctx.outputs(ref.address);
      if (!outputs) {
        pending = true;
        return KNOWN_AFTER_APPLY;
      }
      const found = getAt(outputs, fromPointer(ref.pointer));
      if (found === undefined) {
        fail(path, `${ref.address} has no value at ${ref.pointer || '/'} (used by ${ref.raw})`, ref, refs);
        return '';
      }
      // A value the target took from ${env:} or ${file:} is kept in state only as a hash.
      if (isHashed(found)) {
        fail(
          path,
          `${ref.address} took the value at ${ref.pointer || '/'} from a placeholder, which state keeps only as a hash (used by ${ref.raw}); use that placeholder here instead`,
          ref,
          refs,
        );
        return '';
      }
      return found as JsonValue;
    });
    // A value that is exactly one placeholder takes the referenced value's type, or the field's.
    if (refs.length === 1 && refs[0].raw === value) return diagnostics.length > failures ? parts[0] : typed(parts[0], path, refs[0], refs);
    // Spliced by position, never String.replace: `$&`, `$$` or `$1` in a value are literal text.
    let out = '';
    let from = 0;
    refs.forEach((ref, i) => {
      out += value.slice(from, ref.index) + (typeof parts[i] === 'string' ? parts[i] : JSON.stringify(parts[i]));
      from = ref.index + ref.raw.length;
    });
    return out + value.slice(from);
  };

  const typed = (part: JsonValue, path: JsonPath, ref: Reference, refs: readonly Reference[]): JsonValue => {
    const type = ref.type !== 'ref' && typeof part === 'string' && schema ? filledTypeAt(schema, path) : undefined;
    if (type === undefined) return part;
    const t = typedText(part as string, type);
    if (t.ok) return t.value;
    fail(path, `${fieldPath(['spec', ...path])}: ${t.message} (from ${ref.raw})`, ref, refs);
    return part;
  };

  // A subtree without placeholders is the manifest's own, not a copy (specs are never modified):
  // most specs hold none, and a plan of 100,000 resources would otherwise hold each one twice.
  const walk = (value: JsonValue, path: JsonPath): JsonValue => {
    if (typeof value === 'string') return substitute(value, path);
    if (Array.isArray(value)) {
      const out = value.map((v, i) => walk(v, [...path, i]));
      return out.every((v, i) => v === value[i]) ? value : out;
    }
    if (isObject(value)) {
      const entries = Object.entries(value);
      const out = entries.map(([k, v]): [string, JsonValue] => [k, walk(v, [...path, k])]);
      return out.every(([, v], i) => v === entries[i][1]) ? value : Object.fromEntries(out);
    }
    return value;
  };
  const spec = walk(manifest.spec, []) as JsonObject;
  return { spec, diagnostics, pending };
}
