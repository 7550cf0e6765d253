// How moor runs a DatabaseRefresh: optionally export the target first, then refresh it; never sent twice for a revision.
import type { JsonObject, JsonValue } from '../../core/json.js';
import { isObject } from '../../core/json.js';
import type { JobHandler, KindContext } from '../../core/kind.js';
import { environmentKey } from '../database-jobs-shared/environment-key.js';
import { recheckMovement, sendAnswerLost } from '../database-jobs-shared/movement-recheck.js';
import { runMovement, type MovementStep } from '../database-jobs-shared/movement-steps.js';
import { specText } from '../spec-shared/spec-text.js';

function stepsOf(ctx: KindContext, spec: JsonObject): MovementStep[] {
  const project = specText(spec, 'projectId');
  const source = specText(spec, 'sourceEnvironmentId');
  const target = specText(spec, 'targetEnvironmentId');
  const steps: MovementStep[] = [];
  const first = spec.exportTargetFirst as JsonValue | undefined;
  if (isObject(first) && 'backupName' in first) {
    const backup = specText(first, 'backupName');
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
  revision: (spec) => specText(spec, 'revision'),
  run: (ctx, spec, record, checkpoint) =>
    runMovement(ctx, { projectId: specText(spec, 'projectId'), revision: specText(spec, 'revision'), steps: stepsOf(ctx, spec) }, record, checkpoint),
  recheck: (ctx, spec, record) => recheckMovement(ctx, specText(spec, 'projectId'), record),
  lostAnswer: sendAnswerLost,
  // The service runs one operation per environment at a time (the export first, if any, is on the target too).
  exclusive: (spec) => [environmentKey(spec.projectId, spec.targetEnvironmentId)],
};
