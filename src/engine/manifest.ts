// What loading produces: one Manifest per YAML document, with a way back to its source.
import type { JsonObject, JsonPath } from '../core/json.js';
import type { SourceLocation } from '../core/diagnostics.js';

export const API_VERSION = 'moor/v1';

/** `Kind/name`, the unique handle of a resource in manifests, state and plans. */
export type Address = string;

export function addressOf(kind: string, name: string): Address {
  return `${kind}/${name}`;
}

export function parseAddress(address: string): { kind: string; name: string } | undefined {
  const i = address.indexOf('/');
  if (i <= 0 || i === address.length - 1) return undefined;
  return { kind: address.slice(0, i), name: address.slice(i + 1) };
}

/** Finds source positions inside one YAML document. */
export interface SourceMap {
  /** The file as shown to a user (relative to the working folder when moor started); display only. */
  readonly file: string;
  /** The file's absolute path: what moor reads, and where `${file:}` paths start from. */
  readonly path: string;
  /**
   * Location of the value at `path` (from the document root, e.g. ['spec','location']),
   * or of its key when `at` is 'key'. Falls back to the nearest existing ancestor.
   */
  locate(path: JsonPath, at?: 'key' | 'value'): SourceLocation;
  /**
   * The file (absolute) and manifests' root of the document that set the value at `path`, for a
   * document merged from overlays; absent: every value comes from `path` (and the manifest's root).
   */
  originAt?(path: JsonPath): { readonly path: string; readonly root?: string };
  /**
   * The file (absolute) of the document that set the value at `path` and the value's path in that
   * document (`drift --accept` writes there); absent: `path` in this document's own file.
   */
  setterOf?(path: JsonPath): { readonly path: string; readonly at: JsonPath };
}

export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly address: Address;
  readonly dependsOn: readonly Address[];
  readonly protect: boolean;
  /** Former addresses (metadata.movedFrom): a state record under one of them moves to this address. */
  readonly movedFrom?: readonly Address[];
  /** metadata.ignoreChanges: field paths (as plan prints them) whose live value wins; never a diff. */
  readonly ignoreChanges?: readonly string[];
  /** The spec as written: `${env:…}`, `${file:…}`, `${ref:…}` are still unresolved strings. */
  readonly spec: JsonObject;
  readonly source: SourceMap;
  /** Absolute folder the manifest was found under (the path given, or a given file's folder): `${file:}` stays inside it. */
  readonly root?: string;
}
