// Every kind moor knows. A new kind is one new folder plus one line here.
import type { KindDefinition } from '../core/kind.js';
import { ContainerGroup } from './container-group/index.js';
import { AuthContext } from './auth-context/index.js';
import { PushDataset } from './push-dataset/index.js';
import { DatabaseRefresh } from './database-refresh/index.js';
import { DatabaseExport } from './database-export/index.js';
import { Check } from './check/index.js';

export const KINDS: readonly KindDefinition[] = [ContainerGroup, AuthContext, PushDataset, DatabaseRefresh, DatabaseExport, Check];

const byName = new Map(KINDS.map((k) => [k.kind, k]));

export function kindNamed(name: string): KindDefinition | undefined {
  return byName.get(name);
}
