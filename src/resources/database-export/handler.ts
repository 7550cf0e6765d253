// How moor runs a DatabaseExport: one export per revision, followed to its end and resumed after a crash.
import type { JobHandler } from '../../core/kind.js';
import { environmentKey } from '../database-jobs-shared/environment-key.js';
import { recheckMovement, sendAnswerLost } from '../database-jobs-shared/movement-recheck.js';
import { runMovement } from '../database-jobs-shared/movement-steps.js';

export const job: JobHandler = {
  destructive: false,
  revision: (spec) => String(spec.revision),
  run(ctx, spec, record, checkpoint) {
    const project = String(spec.projectId);
    const env = String(spec.environmentId);
    const backup = String(spec.backupName);
    return runMovement(
      ctx,
      {
        projectId: project,
        revision: String(spec.revision),
        steps: [
          {
            operation: 'export',
            environmentId: env,
            describe: `export of ${env} as '${backup}'`,
            send: () => ctx.providers.lcs.exportDatabase(project, env, backup),
          },
        ],
      },
      record,
      checkpoint,
    );
  },
  recheck: (ctx, spec, record) => recheckMovement(ctx, String(spec.projectId), record),
  lostAnswer: sendAnswerLost,
  // The service runs one operation per environment at a time.
  exclusive: (spec) => [environmentKey(spec.projectId, spec.environmentId)],
};
