// Stored projects, environments and operations of the local database-movement service, and its clock.
import type { ServiceContext } from '../../types.js';

/** Brand word of the version header; the real service carries its own word here. */
export const VENDOR_WORD = 'vendor';
export const VERSION_HEADER = `x-${VENDOR_WORD}-version`;
export const API_VERSION = '2017-09-15';
/** End of life of this API version, as the service reports it on every result. */
export const VERSION_EOL = '9999-12-31T23:59:59.9999999';
/** Default time (ms) an operation takes in each of NotStarted and InProgress. */
const DEFAULT_ASYNC_MS = 1000;

export type EnvironmentType = 'Production' | 'Sandbox';

export interface EnvironmentRecord {
  readonly name: string;
  readonly type: EnvironmentType;
}

export interface ProjectRecord {
  readonly environments: Record<string, EnvironmentRecord>;
}

export type OperationKind = 'export' | 'refresh';

export interface OperationRecord {
  readonly activityId: string;
  readonly kind: OperationKind;
  readonly projectId: string;
  /** The environment the operation counts for: an export's own, a refresh's target. */
  readonly environmentId: string;
  readonly sourceEnvironmentId?: string;
  readonly backupName?: string;
  /** When it was requested (ISO). */
  readonly time: string;
  /** How long each of the NotStarted and InProgress phases lasts. */
  readonly phaseMs: number;
  readonly fails: boolean;
}

export type OperationStatus = 'NotStarted' | 'InProgress' | 'Completed' | 'Failed';

export const DEMO_PROJECT = '1234567';
export const DEMO_ENVIRONMENTS: Readonly<Record<string, EnvironmentRecord>> = {
  'a1b2c3d4-0000-4000-8000-000000000001': { name: 'prod', type: 'Production' },
  'a1b2c3d4-0000-4000-8000-000000000002': { name: 'uat', type: 'Sandbox' },
  'a1b2c3d4-0000-4000-8000-000000000003': { name: 'test', type: 'Sandbox' },
};

export function projects(ctx: ServiceContext): Record<string, ProjectRecord> {
  ctx.data.projects ??= {};
  return ctx.data.projects as Record<string, ProjectRecord>;
}

export function operations(ctx: ServiceContext): OperationRecord[] {
  ctx.data.operations ??= [];
  return ctx.data.operations as OperationRecord[];
}

export function seedDatabaseMovement(data: Record<string, unknown>): void {
  data.projects = { [DEMO_PROJECT]: { environments: { ...DEMO_ENVIRONMENTS } } };
  data.operations = [];
}

/**
 * Phase length: the server's operation phase when set, else its provisioning time, else one
 * second. Stored with each operation so a restart does not change its course.
 */
export function phaseMs(ctx: ServiceContext): number {
  return ctx.operationPhaseMs ?? ctx.provisioningMs ?? DEFAULT_ASYNC_MS;
}

/** Status computed from the stored request time: no timers, so it survives restarts. */
export function statusAt(op: OperationRecord, now: Date): OperationStatus {
  const elapsed = now.getTime() - Date.parse(op.time);
  if (elapsed < op.phaseMs) return 'NotStarted';
  if (elapsed < 2 * op.phaseMs) return 'InProgress';
  return op.fails ? 'Failed' : 'Completed';
}

export function isTerminal(status: OperationStatus): boolean {
  return status === 'Completed' || status === 'Failed';
}
