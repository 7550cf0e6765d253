// How moor runs a DatabaseRefresh: optionally export the target first, then refresh it; never sent twice for a revision.
import type { JsonObject } from '../../core/json.js';
import { isObject } from '../../core/json.js';
import type { JobHandler, KindContext } from '../../core/kind.js';
import { environmentKey } from '../database-jobs-shared/environment-key.js';
import { recheckMovement, sendAnswerLost } from '../database-jobs-shared/movement-recheck.js';
import { runMovement, type MovementStep } from '../database-jobs-shared/movement-steps.js';

function stepsOf(ctx: KindContext, spec: JsonObject): MovementStep[] {
  const project = String(spec.projectId);
  const source = String(spec.sourceEnvironmentId);
  const target = String(spec.targetEnvironmentId);
  const steps: MovementStep[] = [];
  const first = spec.exportTargetFirst;
  if (isObject(first) && first.backupName !== undefined) {
    const backup = String(first.backupName);
    steps.push({
      operation: 'export',
      environmentId: target,
      describe: `export of ${target} as '${backup}' before the refresh`,
      send: () => ctx.providers.lcs.exportDatabase(project, target, backup),
    });
  }
  steps.push({
    operation: 'refresh',
    environmentId: target,
    describe: `refresh of ${target} from ${source}`,
    send: () => ctx.providers.lcs.refreshDatabase(project, source, target),
  });
  return steps;
}

export const job: JobHandler = {
  // A refresh overwrites the target's data.
  destructive: true,
  revision: (spec) => String(spec.revision),
  run: (ctx, spec, record, checkpoint) =>
    runMovement(ctx, { projectId: String(spec.projectId), revision: String(spec.revision), steps: stepsOf(ctx, spec) }, record, checkpoint),
  recheck: (ctx, spec, record) => recheckMovement(ctx, String(spec.projectId), record),
  lostAnswer: sendAnswerLost,
  // The service runs one operation per environment at a time (the export first, if any, is on the target too).
  exclusive: (spec) => [environmentKey(spec.projectId, spec.targetEnvironmentId)],
};
