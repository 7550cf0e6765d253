// What the edge hands the engine: the built-in kinds with the Policy document, and the policies as its guard.
import { kindCatalog, type KindCatalog } from '../core/kind-catalog.js';
import { KINDS } from '../resources/registry.js';
import { POLICY_DOCUMENT } from '../policy/policy-document.js';

export const CATALOG: KindCatalog = kindCatalog(KINDS, [POLICY_DOCUMENT]);
