// moor drift --accept as an operation: plan, then write each drifted live value into the file that
// set it (accept/accept-drift.ts); --dry-run writes nothing. The result carries each file's change.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Session } from '../session.js';
import { preparePlan } from '../workflow.js';
import { acceptDrift, type AcceptResult } from '../accept/accept-drift.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { underStateLock, type LockRequest } from './state-lock.js';
import { converse } from './conversation.js';
import type { OperationHost } from './operation-host.js';

export interface AcceptOperationRequest {
  readonly paths: readonly string[];
  /** Only these addresses; empty: every drifted resource. */
  readonly addresses: readonly string[];
  readonly dryRun: boolean;
  /** State is read under the lock, as drift reads it. */
  readonly lock?: LockRequest;
}

export async function acceptOperation(session: Session, request: AcceptOperationRequest, host: OperationHost): Promise<AcceptResult> {
  return converse(session, host, 'drift', () => accepting(session, request, host));
}

async function accepting(session: Session, request: AcceptOperationRequest, host: OperationHost): Promise<AcceptResult> {
  const prepared = await underStateLock(session, 'moor drift --accept', request.lock ?? { timeoutMs: 0 }, () =>
    preparePlan(session, { paths: request.paths, cwd: host.cwd, env: host.env }),
  );
  const { config } = session;
  const result = acceptDrift(prepared.steps, {
    addresses: request.addresses,
    cwd: host.cwd,
    ...(config.stack ? { stack: config.stack } : {}),
    ...(config.file ? { configFile: resolve(host.cwd, config.file) } : {}),
  });
  if (!request.dryRun) for (const f of result.files) await writeFileAtomic(f.file, f.after, { mode: (await stat(f.file)).mode & 0o777 });
  return result;
}
