// Plan and drift read container groups by listing each resource group (one paged list instead
// of one GET per group); the list holds every property the diff compares.
import type { ContainerGroupBody } from '../../providers/arm.js';
import type { KindContext, ListAnswer, ListReader, ListRun, Observed, ReadTarget } from '../../core/kind.js';
import type { GroupCoordinates } from './mapping.js';

export interface ListDeps {
  /** Where a target lives (the recorded id wins over the spec). */
  locate(target: ReadTarget): GroupCoordinates;
  observed(c: GroupCoordinates, live: ContainerGroupBody): Observed;
}

/** A resource group with one target is read with a GET: a list may be many pages long. */
const LIST_FROM = 2;

type Answered = (index: number, answer: ListAnswer) => void;

/** One resource group's targets, and its listing once it has enough of them to be worth one. */
interface GroupReading {
  readonly first: GroupCoordinates;
  readonly targets: { index: number; at: GroupCoordinates }[];
  /** Names of the groups added or foreseen here: a listing is worth it from LIST_FROM of them. */
  readonly names: Set<string>;
  /** Live groups by lower-cased name (ARM names are case-insensitive); undefined until listed. */
  byName?: Map<string, ContainerGroupBody>;
  listing?: Promise<void>;
}

export function listReader(deps: ListDeps): ListReader {
  const begin = (ctx: KindContext, answered?: Answered): ListRun => {
    const out: ListAnswer[] = [];
    const groups = new Map<string, GroupReading>();
    const answer = (byName: Map<string, ContainerGroupBody>, t: { index: number; at: GroupCoordinates }): void => {
      const live = byName.get(t.at.name.toLowerCase());
      out[t.index] = live ? deps.observed(t.at, live) : undefined;
      answered?.(t.index, out[t.index]);
    };
    const list = (group: GroupReading): Promise<void> =>
      ctx.providers.arm.listContainerGroups(group.first.subscriptionId, group.first.resourceGroup).then(
        (listed) => {
          const byName = new Map(listed.map((g) => [(g.name ?? '').toLowerCase(), g])); // the client checks each name is a text
          group.byName = byName;
          for (const t of group.targets) answer(byName, t);
        },
        () => undefined,
      ); // a failed listing leaves its targets to read(), which reports the service's error
    /** The resource group of `at`, its listing started once LIST_FROM groups are known there. */
    const groupOf = (at: GroupCoordinates): GroupReading => {
      const key = `${at.subscriptionId}/${at.resourceGroup}`.toLowerCase();
      const group = groups.get(key) ?? { first: at, targets: [], names: new Set<string>() };
      groups.set(key, group);
      group.names.add(at.name.toLowerCase());
      if (!group.listing && group.names.size >= LIST_FROM) group.listing = list(group);
      return group;
    };
    return {
      add(target) {
        const index = out.push('read') - 1;
        // A target that cannot be located is left to read(), which reports why.
        let at: GroupCoordinates;
        try {
          at = deps.locate(target);
        } catch {
          return;
        }
        const group = groupOf(at);
        group.targets.push({ index, at });
        if (group.byName) answer(group.byName, { index, at });
      },
      foresee(target) {
        try {
          groupOf(deps.locate(target));
        } catch {
          /* added later, it is left to read() */
        }
      },
      async finish() {
        await Promise.all([...groups.values()].map((g) => g.listing ?? Promise.resolve()));
        return out;
      },
    };
  };
  return {
    complete: true,
    begin,
    readAll(ctx, targets, answered) {
      const run = begin(ctx, answered);
      for (const t of targets) run.add(t);
      return run.finish();
    },
  };
}
