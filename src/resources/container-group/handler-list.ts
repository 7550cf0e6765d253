// Plan and drift read container groups by listing each resource group (one paged list instead
// of one GET per group); the list holds every property the diff compares.
import type { ContainerGroupBody } from '../../providers/arm.js';
import type { KindContext, ListAnswer, ListReader, Observed, ReadTarget } from '../../core/kind.js';
import type { GroupCoordinates } from './mapping.js';

export interface ListDeps {
  /** Where a target lives (the recorded id wins over the spec). */
  locate(target: ReadTarget): GroupCoordinates;
  observed(c: GroupCoordinates, live: ContainerGroupBody): Observed;
}

/** A resource group with one target is read with a GET: a list may be many pages long. */
const LIST_FROM = 2;

export function listReader(deps: ListDeps): ListReader {
  return {
    complete: true,
    async readAll(ctx: KindContext, targets: readonly ReadTarget[], answered?: (index: number, answer: ListAnswer) => void) {
      // A target that cannot be located is left to read(), which reports why.
      const located = targets.map((t) => { try { return deps.locate(t); } catch { return undefined; } });
      const byGroup = new Map<string, number[]>();
      located.forEach((c, i) => {
        if (!c) return;
        const key = `${c.subscriptionId}/${c.resourceGroup}`.toLowerCase();
        const indexes = byGroup.get(key);
        if (indexes) indexes.push(i);
        else byGroup.set(key, [i]);
      });
      const out: ListAnswer[] = targets.map(() => 'read');
      await Promise.all([...byGroup.values()].map(async (indexes) => {
        if (indexes.length < LIST_FROM) return;
        const first = located[indexes[0]]!;
        const listed = await ctx.providers.arm.listContainerGroups(first.subscriptionId, first.resourceGroup);
        // Names are case-insensitive in ARM, and it may answer with another casing than was sent.
        const byName = new Map(listed.map((g) => [String(g.name ?? '').toLowerCase(), g]));
        for (const i of indexes) {
          const c = located[i]!;
          const live = byName.get(c.name.toLowerCase());
          out[i] = live ? deps.observed(c, live) : undefined;
          answered?.(i, out[i]);
        }
      }));
      return out;
    },
  };
}
