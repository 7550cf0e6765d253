// Every kind moor knows. A new kind is one new folder plus one line here.
import type { KindDefinition } from '../core/kind.js';
import { kindCatalog, type KindCatalog } from '../core/kind-catalog.js';
import { ContainerGroup } from './container-group/index.js';
import { AuthContext } from './auth-context/index.js';
import { PushDataset } from './push-dataset/index.js';
import { DatabaseRefresh } from './database-refresh/index.js';
import { DatabaseExport } from './database-export/index.js';
import { Check } from './check/index.js';

export const KINDS: readonly KindDefinition[] = [ContainerGroup, AuthContext, PushDataset, DatabaseRefresh, DatabaseExport, Check];

/** The built-in kinds as the catalog the edge hands to the engine. */
export const BUILT_IN_KINDS: KindCatalog = kindCatalog(KINDS);
