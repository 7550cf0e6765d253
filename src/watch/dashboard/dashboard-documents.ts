// The dashboard's data documents, made from what the watch loops last saw: a resource's detail (its
// change rendered by plan's own renderer), the laid-out graph, the history and the request rates.
import { historyLimit, listedRuns } from '../../engine/history/history-store.js';
import { renderChangeText } from '../../engine/render/index.js';
import type { Session } from '../../engine/session.js';
import type { ResourceRecord } from '../../engine/state/types.js';
import type { StackState } from '../stack-loop.js';
import type { GraphLayout, HistoryDocument, ResourceDetail } from './api-types.js';
import { layoutGraph } from './graph-layout.js';
import { stackField, stackOfQuery } from './stack-field.js';
import { driftAnswers } from '../../engine/render/drift-answers.js';

/** One stack as the dashboard reads it. */
export interface DashboardStack {
  /** Unset for the manifests given without stacks. */
  readonly name?: string;
  readonly session: Session;
  state(): StackState;
}

/** The stack named by a query's `stack` (absent or empty: the one without a name). */
export function findStack(stacks: readonly DashboardStack[], name: string | null): DashboardStack | undefined {
  const wanted = stackOfQuery(name);
  return stacks.find((s) => s.name === wanted);
}

export async function resourceDetail(stack: DashboardStack, address: string): Promise<ResourceDetail | undefined> {
  const report = stack.state().lastReport;
  const resource = report?.resources?.find((r) => r.address === address);
  const change = report?.plan?.changes.find((c) => c.address === address);
  if (!resource || !change) return undefined;
  const record = (await stack.session.backend.read()).resources[address] as ResourceRecord | undefined; // a resource not applied yet has none
  const answers = driftAnswers(change, stack.name);
  return {
    format: 'moor-dashboard-resource/1',
    stack: stackField(stack.name),
    resource,
    action: change.action,
    drift: change.drift,
    diff: change.action === 'no-op' ? [] : renderChangeText(change, 'plan'),
    ...(answers ? { answers } : {}),
    // State keeps outputs with the kind's secrets masked already; a resolved secret that turns up anyway is masked here.
    outputs: record?.outputs ? stack.session.masker.maskDeep(record.outputs) : null,
    dependsOn: report?.graph?.dependenciesOf(address) ?? [],
    dependents: report?.graph?.dependentsOf(address) ?? [],
  };
}

/** Layouts are made once per cycle of a stack: a page asking again gets the same drawing. */
const layouts = new WeakMap<object, Promise<GraphLayout>>();

export function graphLayout(stack: DashboardStack): Promise<GraphLayout> {
  const report = stack.state().lastReport;
  if (!report?.graph || !report.resources)
    return Promise.resolve({ format: 'moor-dashboard-graph/1', stack: stackField(stack.name), width: 0, height: 0, nodes: [], edges: [] });
  const cached = layouts.get(report);
  if (cached) return cached;
  const made = layoutGraph(stackField(stack.name), report.graph, report.resources);
  layouts.set(report, made);
  return made;
}

export async function historyDocument(stack: DashboardStack): Promise<HistoryDocument> {
  const entries = (await stack.session.backend.readHistory?.(historyLimit(stack.session.config.history))) ?? [];
  return { format: 'moor-dashboard-history/1', stack: stackField(stack.name), runs: stack.session.masker.maskDeep(listedRuns(entries)) };
}
