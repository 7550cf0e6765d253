// A live resource belongs to one stack. Two stacks whose manifests resolve to the same resource
// (the same resource group and name) would take it over from each other on every apply, and a
// self-healing watch of both would "repair" it back and forth. Ownership is what the stacks' states
// record: planning stack b against a live resource stack a's state records is refused, naming a, as
// another environment's state is refused (foreign-state.ts). No tag is written on the resource.
import type { Diagnostic } from '../../core/diagnostics.js';
import { loadConfig, type MoorConfig } from '../config.js';
import { openStackState } from '../state/stack-state.js';
import type { PlannedStep } from './steps.js';

export const OWNED_ELSEWHERE = 'state.owned-elsewhere';

interface Owner { readonly stack: string; readonly address: string }

/** The service ids the other stacks' states record, lower-cased (ids compare without case), with their stack and address. */
export async function otherStacksOwners(config: MoorConfig, cwd: string, env: Readonly<NodeJS.ProcessEnv>): Promise<{ owners: Map<string, Owner>; diagnostics: Diagnostic[] }> {
  const owners = new Map<string, Owner>();
  const diagnostics: Diagnostic[] = [];
  const self = config.stack?.name;
  if (!self || !config.stacks) return { owners, diagnostics };
  for (const stack of config.stacks.filter((s) => s !== self)) {
    try {
      const backend = openStackState(undefined, loadConfig(config.file, cwd, env, { name: stack, source: 'named' }), cwd);
      try {
        const doc = await backend.read();
        for (const [address, record] of Object.entries(doc.resources)) {
          if (record.id) owners.set(record.id.toLowerCase(), { stack, address });
        }
      } finally {
        await backend.close();
      }
    } catch (err) {
      diagnostics.push({ severity: 'warning', code: OWNED_ELSEWHERE, message: `cannot read stack ${stack}'s state to see which live resources it owns: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` });
    }
  }
  return { owners, diagnostics };
}

/** One error per planned step whose live resource another stack's state records. */
export function ownedElsewhereDiagnostics(steps: readonly PlannedStep[], owners: ReadonlyMap<string, Owner>, stack: string): Diagnostic[] {
  if (owners.size === 0) return [];
  return steps.flatMap((step): Diagnostic[] => {
    const id = step.observed?.id ?? step.record?.id;
    const owner = id ? owners.get(id.toLowerCase()) : undefined;
    if (!owner || !step.manifest) return [];
    return [{
      severity: 'error', code: OWNED_ELSEWHERE, address: step.change.address,
      location: step.manifest.source.locate(['metadata', 'name']),
      message: `${step.change.address}: the live resource belongs to stack ${owner.stack} (its state records it as ${owner.address}), not ${stack}: a live resource belongs to one stack; give stack ${stack} a resource of its own (another resource group or name), or remove it from stack ${owner.stack} first (moor state rm --stack ${owner.stack} ${owner.address})`,
    }];
  });
}
