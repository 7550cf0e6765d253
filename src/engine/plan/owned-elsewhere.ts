// A live resource belongs to one stack. Two stacks whose manifests resolve to the same resource
// (the same resource group and name) would take it over from each other on every apply, and a
// self-healing watch of both would "repair" it back and forth. Ownership is what the stacks' states
// record: planning stack b against a live resource stack a's state records is refused, naming a, as
// another environment's state is refused (foreign-state.ts). No tag is written on the resource.
import type { Diagnostic } from '../../core/diagnostics.js';
import { loadConfig, type MoorConfig } from '../config.js';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { withStackWorkspace } from '../config-stacks.js';
import { recordedIds, type OtherState } from '../state/recorded-ids.js';
import type { StateBackend } from '../state/types.js';
import type { PlannedStep } from './steps.js';

export const OWNED_ELSEWHERE = 'state.owned-elsewhere';

interface Owner {
  readonly stack: string;
  readonly address: string;
}

/**
 * The service ids the other stacks' states record, lower-cased (ids compare without case), with their
 * stack and address. `given`: the state given for the run (--state, MOOR_STATE): a PostgreSQL database
 * given without a workspace holds the other stacks' states too. `via`: the run's backend, which reads the
 * other workspaces of its database through its own connection.
 */
export async function otherStacksOwners(
  config: MoorConfig,
  cwd: string,
  env: Readonly<NodeJS.ProcessEnv>,
  given?: string,
  via?: StateBackend,
): Promise<{ owners: Map<string, Owner>; diagnostics: Diagnostic[] }> {
  const owners = new Map<string, Owner>();
  const diagnostics: Diagnostic[] = [];
  const self = config.stack?.name;
  if (!self || !config.stacks) return { owners, diagnostics };
  const cannotRead = (stack: string, message: string) =>
    diagnostics.push({
      severity: 'warning',
      code: OWNED_ELSEWHERE,
      message: `cannot read stack ${stack}'s state to see which live resources it owns: ${message.split('\n')[0]}`,
    });
  const states: OtherState[] = [];
  for (const stack of config.stacks.filter((s) => s !== self)) {
    try {
      states.push({ stack, location: stateLocation(config, cwd, env, stack, given) });
    } catch (err) {
      cannotRead(stack, err instanceof Error ? err.message : String(err));
    }
  }
  const recorded = await recordedIds(states, cwd, via);
  for (const { stack } of states) {
    const r = recorded.get(stack);
    if (!r) continue;
    if ('error' in r) cannotRead(stack, r.error);
    else for (const [id, address] of r.ids) owners.set(id.toLowerCase(), { stack, address });
  }
  return { owners, diagnostics };
}

/** Stack locations by config file version (path, size, modification time) and stack: a watch plans every stack every interval. */
const locations = new WeakMap<object, Map<string, string | undefined>>();

/** Where `stack`'s state is, as a run of it would open it (openStackState). */
function stateLocation(config: MoorConfig, cwd: string, env: Readonly<NodeJS.ProcessEnv>, stack: string, given: string | undefined): string | undefined {
  // A database given without a workspace holds every stack's (a workspace each); a file or a workspace given names this stack's alone.
  if (given !== undefined && /^postgres(ql)?:\/\//i.test(given.trim()) && !/[?&]workspace=/.test(given)) return withStackWorkspace(given, stack);
  const file = config.file === undefined ? undefined : resolve(cwd, config.file);
  const stat = file === undefined ? undefined : statSync(file, { throwIfNoEntry: false });
  const version = `${file}\u0000${stat?.size}\u0000${stat?.mtimeMs}\u0000${cwd}\u0000${stack}`;
  let known = locations.get(env);
  if (!known) locations.set(env, (known = new Map<string, string | undefined>()));
  if (known.has(version)) return known.get(version);
  const state = loadConfig(config.file, cwd, env, { name: stack, source: 'named' }).state;
  const location = state === undefined ? undefined : withStackWorkspace(state, stack);
  if (known.size > 10_000) known.clear();
  known.set(version, location);
  return location;
}

/** One error per planned step whose live resource another stack's state records. */
export function ownedElsewhereDiagnostics(steps: readonly PlannedStep[], owners: ReadonlyMap<string, Owner>, stack: string): Diagnostic[] {
  if (owners.size === 0) return [];
  return steps.flatMap((step): Diagnostic[] => {
    const id = step.observed?.id ?? step.record?.id;
    const owner = id ? owners.get(id.toLowerCase()) : undefined;
    if (!owner || !step.manifest) return [];
    return [
      {
        severity: 'error',
        code: OWNED_ELSEWHERE,
        address: step.change.address,
        location: step.manifest.source.locate(['metadata', 'name']),
        message: `${step.change.address}: the live resource belongs to stack ${owner.stack} (its state records it as ${owner.address}), not ${stack}: a live resource belongs to one stack; give stack ${stack} a resource of its own (another resource group or name), or remove it from stack ${owner.stack} first (moor state rm --stack ${owner.stack} ${owner.address})`,
      },
    ];
  });
}
