// Folder scoping and continuation-token paging of Fabric list operations.
import type { FolderRecord } from './eventstreams-seed.js';

export const PAGE_SIZE = 25;

/** What a list asks for; a continuation token carries it so later pages need nothing else. */
export interface ListScope {
  readonly offset: number;
  readonly recursive: boolean;
  readonly rootFolderId?: string;
}

export function encodeToken(scope: ListScope): string {
  return Buffer.from(JSON.stringify({ o: scope.offset, r: scope.recursive, f: scope.rootFolderId ?? null })).toString('base64url');
}

/** The scope a token carries, or undefined when the token is not one of ours. */
export function decodeToken(token: string): ListScope | undefined {
  try {
    const raw: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof raw !== 'object' || raw === null) return undefined;
    const { o, r, f } = raw as Record<string, unknown>;
    if (!Number.isInteger(o) || (o as number) < 0 || typeof r !== 'boolean') return undefined;
    return { offset: o as number, recursive: r, ...(typeof f === 'string' ? { rootFolderId: f } : {}) };
  } catch {
    return undefined;
  }
}

/** Ids of the folders whose direct content a scope lists (undefined stands for the workspace root). */
export function foldersInScope(folders: readonly FolderRecord[], scope: ListScope): Set<string | undefined> {
  const root = scope.rootFolderId;
  const selected = new Set<string | undefined>([root]);
  if (!scope.recursive) return selected;
  let grew = true;
  while (grew) {
    grew = false;
    for (const folder of folders) {
      if (!selected.has(folder.id) && selected.has(folder.parentFolderId)) {
        selected.add(folder.id);
        grew = true;
      }
    }
  }
  return selected;
}

export interface Page<T> {
  readonly value: T[];
  readonly continuationToken?: string;
}

export function pageOf<T>(all: readonly T[], scope: ListScope): Page<T> {
  const value = all.slice(scope.offset, scope.offset + PAGE_SIZE);
  const next = scope.offset + PAGE_SIZE;
  return next < all.length ? { value, continuationToken: encodeToken({ ...scope, offset: next }) } : { value };
}
