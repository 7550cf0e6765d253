// The database-movement client: export, refresh, and the status of an operation.
import { DEFAULT_API_SETTINGS, type ApiSettings } from './api-settings.js';
import { expectBoolean, expectObject, expectString, type JsonRecord } from './answer-shape.js';
import type { RequestSender, TransportResponse } from './transport.js';

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
/** Seed 000 lists it for the POSTs, though they carry no body. */
const JSON_CONTENT = { 'content-type': 'application/json' };

export class LcsClient {
  private readonly versioned: Record<string, string>;

  constructor(
    private readonly t: RequestSender,
    api: ApiSettings['lcs'] = DEFAULT_API_SETTINGS.lcs,
  ) {
    this.versioned = { [api.versionHeader]: api.apiVersion };
  }

  /**
   * Starts an export. Never retried blindly (operations per environment are rationed):
   * a lost answer throws ServiceError with outcomeUnknown; IsSuccess false is returned.
   */
  async exportDatabase(project: string, env: string, backupName: string): Promise<MovementResult> {
    const path = `/databasemovement/v1/export/project/${enc(project)}/environment/${enc(env)}/backupName/${enc(backupName)}`;
    const res = await this.t.request({ method: 'POST', path, headers: JSON_CONTENT, label: `export/${env}` });
    return resultOf(res);
  }

  /** Starts a refresh of `target` from `source`; same rules as exportDatabase. */
  async refreshDatabase(project: string, source: string, target: string): Promise<MovementResult> {
    const path = `/databasemovement/v1/refresh/project/${enc(project)}/source/${enc(source)}/target/${enc(target)}`;
    const res = await this.t.request({ method: 'POST', path, headers: { ...JSON_CONTENT, ...this.versioned }, label: `refresh/${target}` });
    return resultOf(res);
  }

  /** The status of an operation (a read, retried normally). */
  async fetchStatus(project: string, env: string, activityId: string): Promise<MovementResult> {
    const path = `/databasemovement/v1/fetchstatus/project/${enc(project)}/environment/${enc(env)}/operationactivity/${enc(activityId)}`;
    const res = await this.t.request({ method: 'GET', path, headers: this.versioned, label: `fetchstatus/${activityId}` });
    const result = resultOf(res);
    // A status read that succeeded without a status would be followed as "in progress" for ever.
    if (result.IsSuccess) expectString(res, res.body as JsonRecord, 'OperationStatus');
    return result;
  }
}

/** The result object: moor decides by IsSuccess, so it must be there as true or false. */
function resultOf(res: TransportResponse): MovementResult {
  const body = expectObject(res, res.body, 'a database-movement result');
  expectBoolean(res, body, 'IsSuccess');
  return body as unknown as MovementResult;
}
