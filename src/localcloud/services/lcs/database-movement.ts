// Local database movement: export and refresh, their status, and the 3-per-day limit.
import { randomUUID } from 'node:crypto';
import { ownEntry } from '../../own-entry.js';
import type { LocalRequest, LocalResponse, LocalService, ServiceContext } from '../../types.js';
import {
  API_VERSION,
  isTerminal,
  operations,
  phaseMs,
  projects,
  seedDatabaseMovement,
  statusAt,
  VERSION_EOL,
  VERSION_HEADER,
  type OperationRecord,
} from './database-movement-store.js';

const BASE = '/databasemovement/v1';
/** Operations one environment may take within a rolling day. */
export const OPERATIONS_PER_DAY = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Backup names containing this word make an export that ends Failed (a documented way to test failures). */
const FAILING_WORD = 'fail';

/** The database movement result object; every answer of the service is one, with status 200. */
function result(isSuccess: boolean, errorMessage: string | null, activityId: string = randomUUID(), extra: Record<string, unknown> = {}): LocalResponse {
  return {
    status: 200,
    body: { IsSuccess: isSuccess, OperationActivityId: activityId, ErrorMessage: errorMessage, VersionEOL: VERSION_EOL, ...extra },
  };
}

const refused = (message: string): LocalResponse => result(false, message);

/** Why the project or an environment cannot be used, or undefined. */
function unknownTarget(ctx: ServiceContext, projectId: string, environmentIds: readonly string[]): string | undefined {
  const project = ownEntry(projects(ctx), projectId);
  if (!project) return `Project ${projectId} was not found or you do not have access to it.`;
  const missing = environmentIds.find((id) => !ownEntry(project.environments, id.toLowerCase()));
  return missing ? `Environment ${missing} was not found in project ${projectId}.` : undefined;
}

/** Why the environment cannot take one more operation now, or undefined. */
function busyOrExhausted(ctx: ServiceContext, environmentId: string): string | undefined {
  const now = ctx.now();
  const mine = operations(ctx).filter((op) => op.environmentId === environmentId);
  const running = mine.find((op) => !isTerminal(statusAt(op, now)));
  if (running)
    return `Another database operation (${running.kind}, activity ${running.activityId}) is in progress on environment ${environmentId}. Wait for it to finish.`;
  const recent = mine.filter((op) => now.getTime() - Date.parse(op.time) < DAY_MS);
  if (recent.length < OPERATIONS_PER_DAY) return undefined;
  const freeAt = new Date(Date.parse(recent[0].time) + DAY_MS).toISOString();
  return `The maximum of ${OPERATIONS_PER_DAY} database operations per environment in 24 hours has been reached for environment ${environmentId}. Try again after ${freeAt}.`;
}

function start(ctx: ServiceContext, op: Omit<OperationRecord, 'activityId' | 'time' | 'phaseMs'>): LocalResponse {
  const record: OperationRecord = { ...op, activityId: randomUUID(), time: ctx.now().toISOString(), phaseMs: phaseMs(ctx) };
  operations(ctx).push(record);
  ctx.save();
  return result(true, null, record.activityId);
}

function environmentType(ctx: ServiceContext, projectId: string, environmentId: string): string | undefined {
  const project = ownEntry(projects(ctx), projectId);
  return project && ownEntry(project.environments, environmentId)?.type;
}

export function exportDatabase(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const { projectId, backupName } = req.params;
  const environmentId = req.params.environmentId.toLowerCase();
  const unknown = unknownTarget(ctx, projectId, [environmentId]);
  if (unknown) return refused(unknown);
  if (environmentType(ctx, projectId, environmentId) === 'Production') {
    return refused(`Environment ${environmentId} is a production environment: a database can be exported only from a sandbox environment.`);
  }
  if (backupName.trim() === '' || backupName.length > 100 || /[\\/]/.test(backupName)) {
    return refused(`The backup name '${backupName}' is not valid: use 1 to 100 characters without '/' or '\\'.`);
  }
  const blocked = busyOrExhausted(ctx, environmentId);
  if (blocked) return refused(blocked);
  return start(ctx, { kind: 'export', projectId, environmentId, backupName, fails: backupName.toLowerCase().includes(FAILING_WORD) });
}

export function refreshDatabase(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const version = req.headers[VERSION_HEADER];
  if (version !== API_VERSION) {
    return refused(
      `The ${VERSION_HEADER} header is required with the value ${API_VERSION}${version === undefined ? '' : `; '${String(version)}' is not supported`}.`,
    );
  }
  const { projectId } = req.params;
  const source = req.params.sourceEnvironmentId.toLowerCase();
  const target = req.params.targetEnvironmentId.toLowerCase();
  const unknown = unknownTarget(ctx, projectId, [source, target]);
  if (unknown) return refused(unknown);
  if (source === target) return refused('The source and target environments must be different.');
  if (environmentType(ctx, projectId, target) === 'Production') {
    return refused(`Environment ${target} is a production environment: only a sandbox environment can be the target of a refresh.`);
  }
  const blocked = busyOrExhausted(ctx, target);
  if (blocked) return refused(blocked);
  return start(ctx, { kind: 'refresh', projectId, environmentId: target, sourceEnvironmentId: source, fails: false });
}

function failureMessage(op: OperationRecord): string {
  return op.kind === 'export'
    ? `The export of the database to backup '${op.backupName}' failed.`
    : `The refresh of environment ${op.environmentId} from ${op.sourceEnvironmentId} failed.`;
}

/** Status of an operation; the environment may be the one it counts for or a refresh's source. */
export function fetchStatus(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const { projectId, operationActivityId } = req.params;
  const environmentId = req.params.environmentId.toLowerCase();
  const op = operations(ctx).find(
    (o) =>
      o.activityId === operationActivityId.toLowerCase() &&
      o.projectId === projectId &&
      (o.environmentId === environmentId || o.sourceEnvironmentId === environmentId),
  );
  if (!op)
    return result(
      false,
      `Operation activity ${operationActivityId} was not found for environment ${environmentId} in project ${projectId}.`,
      operationActivityId,
    );
  const status = statusAt(op, ctx.now());
  return result(true, status === 'Failed' ? failureMessage(op) : null, op.activityId, { OperationStatus: status });
}

/** Local-only, read-only: the operations an environment has taken, oldest first. */
export function listEnvironmentOperations(req: LocalRequest, ctx: ServiceContext): LocalResponse {
  const environmentId = req.params.environmentId.toLowerCase();
  const now = ctx.now();
  const list = operations(ctx)
    .filter((op) => op.environmentId === environmentId)
    .map((op) => ({
      time: op.time,
      kind: op.kind,
      activityId: op.activityId,
      projectId: op.projectId,
      ...(op.sourceEnvironmentId ? { sourceEnvironmentId: op.sourceEnvironmentId } : {}),
      ...(op.backupName ? { backupName: op.backupName } : {}),
      status: statusAt(op, now),
    }));
  return { status: 200, body: { environmentId, operations: list } };
}

export const lcsDatabaseMovement: LocalService = {
  name: 'lcs',
  routes: [
    {
      method: 'POST',
      path: `${BASE}/export/project/:projectId/environment/:environmentId/backupName/:backupName`,
      handler: exportDatabase,
      faultAfterCommit: true,
    },
    {
      method: 'POST',
      path: `${BASE}/refresh/project/:projectId/source/:sourceEnvironmentId/target/:targetEnvironmentId`,
      handler: refreshDatabase,
      faultAfterCommit: true,
    },
    { method: 'GET', path: `${BASE}/fetchstatus/project/:projectId/environment/:environmentId/operationactivity/:operationActivityId`, handler: fetchStatus },
    { method: 'GET', path: `${BASE}/_local/environment/:environmentId/operations`, handler: listEnvironmentOperations },
  ],
  // The core's own errors (401, 404 of an unknown path) keep the service's result shape.
  errorBody: (_status, _code, message) => ({ IsSuccess: false, OperationActivityId: null, ErrorMessage: message, VersionEOL: VERSION_EOL }),
  seed: seedDatabaseMovement,
};
