// The database-movement client (seed 000): export, refresh, and the status of an operation.
import { VERSION_HEADER } from './vendor.js';
import type { Transport } from './transport.js';

/** The API version the refresh and status calls require in the `x-vendor-version` header. */
export const LCS_API_VERSION = '2017-09-15';

/** The result object: the service answers 200 whatever happened; read IsSuccess. */
export interface MovementResult {
  readonly IsSuccess: boolean;
  readonly OperationActivityId?: string;
  readonly ErrorMessage?: string | null;
  readonly VersionEOL?: string;
  /** Only on fetchStatus: NotStarted, InProgress, Completed, Failed, SignedOff, Aborted, Rollback…. */
  readonly OperationStatus?: string;
  readonly [field: string]: unknown;
}

const enc = encodeURIComponent;
const versioned = { [VERSION_HEADER]: LCS_API_VERSION };

export class LcsClient {
  constructor(private readonly t: Transport) {}

  /**
   * Starts an export. Never retried blindly (operations per environment are rationed):
   * a lost answer throws ServiceError with outcomeUnknown; IsSuccess false is returned.
   */
  async exportDatabase(project: string, env: string, backupName: string): Promise<MovementResult> {
    const path = `/databasemovement/v1/export/project/${enc(project)}/environment/${enc(env)}/backupName/${enc(backupName)}`;
    const res = await this.t.request({ method: 'POST', path, label: `export/${env}` });
    return res.body as MovementResult;
  }

  /** Starts a refresh of `target` from `source`; same rules as exportDatabase. */
  async refreshDatabase(project: string, source: string, target: string): Promise<MovementResult> {
    const path = `/databasemovement/v1/refresh/project/${enc(project)}/source/${enc(source)}/target/${enc(target)}`;
    const res = await this.t.request({ method: 'POST', path, headers: versioned, label: `refresh/${target}` });
    return res.body as MovementResult;
  }

  /** The status of an operation (a read, retried normally). */
  async fetchStatus(project: string, env: string, activityId: string): Promise<MovementResult> {
    const path = `/databasemovement/v1/fetchstatus/project/${enc(project)}/environment/${enc(env)}/operationactivity/${enc(activityId)}`;
    const res = await this.t.request({ method: 'GET', path, headers: versioned, label: `fetchstatus/${activityId}` });
    return res.body as MovementResult;
  }
}
