// The watch's JSON documents: /api/status and the dashboard's, small, typed, one per view. The server
// builds them as these types and the page's scripts are type-checked against them (tsconfig.dashboard.json).
import type { HistoryRun } from '../../engine/history/history-run.js';
import type { JsonValue } from '../../core/json.js';
import type { StepStatus } from '../../core/events.js';
import type { FleetReplica } from '../../engine/state/types.js';
import type { CycleResult, ResourceStatus } from '../stack-status.js';
import type { DriftAnswers } from '../../engine/render/drift-answers.js';

/** GET /api/status: this replica, the stacks it holds, and every stack of the watch with its last cycle. */
export interface WatchStatus {
  readonly format: 'moor-watch-status/1';
  readonly replica: { readonly id: string; readonly host: string; readonly pid: number };
  /** The stacks whose lease this replica holds (the others are reconciled by other replicas); null: the manifests watched without stacks. */
  readonly holds: readonly (string | null)[];
  /** Replicas on PostgreSQL: every replica this one saw at its last look; absent without replicas. */
  readonly fleet?: FleetDocument;
  readonly stacks: readonly StackStatus[];
}

export interface FleetDocument {
  readonly replicas: readonly ReplicaStatus[];
  /** How many stacks the replicas share. */
  readonly stacks: number;
  /** When this replica last looked at the others; null before its first look. */
  readonly surveyedAt: string | null;
}

/** A replica as the serving one saw it: its heartbeat, whether it is this one, and the stacks it holds. */
export interface ReplicaStatus extends FleetReplica {
  readonly self: boolean;
  readonly holds: readonly (string | null)[];
}

/** One stack of /api/status; `stack` null for the manifests watched without stacks. */
export interface StackStatus {
  readonly stack: string | null;
  /** Another replica holds the stack's lease: what this one saw last is not shown. */
  readonly standby: boolean;
  readonly runs: number;
  readonly consecutiveFailures: number;
  readonly lastRunAt: string | null;
  readonly lastSuccessAt: string | null;
  readonly nextRunAt: string | null;
  /** The last cycle's result; null before the first (or on standby). */
  readonly result: CycleResult | null;
  readonly error: string | null;
  readonly findings: readonly string[];
  readonly resources: readonly ResourceStatus[];
  /** The last cycle's apply (--self-heal), its steps that did something; null when it applied nothing. */
  readonly lastRun: readonly AppliedStep[] | null;
}

export interface AppliedStep {
  readonly address: string;
  readonly action: string;
  readonly status: StepStatus;
  readonly error?: string;
}

/** GET /api/dashboard/resource?stack=S&address=A: one resource, its diff as plan prints it, its outputs. */
export interface ResourceDetail {
  readonly format: 'moor-dashboard-resource/1';
  readonly stack: string | null;
  readonly resource: ResourceStatus;
  /** The planned action of the last cycle ('no-op' when in sync). */
  readonly action: string;
  readonly drift: boolean;
  /** The change as `moor plan` prints it, line by line (sensitive values as `(sensitive)`); empty when in sync. */
  readonly diff: readonly string[];
  /** For a drifted resource, the three answers as commands to copy (accept, revert, ignore); absent otherwise. */
  readonly answers?: DriftAnswers;
  /** What state keeps of the live resource (secrets masked); null when never applied. */
  readonly outputs: JsonValue | null;
  readonly dependsOn: readonly string[];
  readonly dependents: readonly string[];
}

export interface GraphNode {
  readonly address: string;
  readonly kind: string;
  readonly status: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface GraphEdge {
  /** The resource that depends on `to`. */
  readonly from: string;
  readonly to: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

/** GET /api/dashboard/graph?stack=S: the dependency graph laid out (dagre), ready to draw. */
export interface GraphLayout {
  readonly format: 'moor-dashboard-graph/1';
  readonly stack: string | null;
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** Set when the stack has more resources than a drawing can show: nothing is laid out then. */
  readonly tooLarge?: { readonly resources: number; readonly limit: number };
}

/** GET /api/dashboard/history?stack=S: the stack's runs, newest first. */
export interface HistoryDocument {
  readonly format: 'moor-dashboard-history/1';
  readonly stack: string | null;
  readonly runs: readonly HistoryRun[];
}

export interface ServiceRates {
  readonly service: string;
  readonly requests: number;
  readonly throttled: number;
  readonly retries: number;
  readonly throttleWaitSeconds: number;
  /** Answers per minute over the window (null until two samples exist). */
  readonly requestsPerMinute: number | null;
  readonly throttledPerMinute: number | null;
}

/** GET /api/dashboard/rates: requests and throttling per service, from the watch's metrics. */
export interface RatesDocument {
  readonly format: 'moor-dashboard-rates/1';
  /** How many seconds the per-minute rates look back over. */
  readonly windowSeconds: number;
  readonly services: readonly ServiceRates[];
}

/** A message of the live stream (/api/events, server-sent events). */
export type LiveMessage =
  /** A stack finished a cycle: its statuses (and history, rates) may have changed. */
  | { readonly type: 'cycle'; readonly stack: string | null; readonly result: string }
  /** A step of a --self-heal apply started or finished. */
  | { readonly type: 'step'; readonly stack: string | null; readonly address: string; readonly phase: 'started' | 'finished'; readonly status?: string }
  /** A service throttled a request. */
  | { readonly type: 'throttled'; readonly stack: string | null; readonly service: string };
