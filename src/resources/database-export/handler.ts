// How moor runs a DatabaseExport: one export per revision, followed to its end and resumed after a crash.
import type { JobHandler } from '../../core/kind.js';
import { environmentKey } from '../database-jobs-shared/environment-key.js';
import { recheckMovement, sendAnswerLost } from '../database-jobs-shared/movement-recheck.js';
import { runMovement } from '../database-jobs-shared/movement-steps.js';
import { specText } from '../spec-shared/spec-text.js';

export const job: JobHandler = {
  destructive: false,
  revision: (spec) => specText(spec, 'revision'),
  run(ctx, spec, record, checkpoint) {
    const project = specText(spec, 'projectId');
    const env = specText(spec, 'environmentId');
    const backup = specText(spec, 'backupName');
    return runMovement(
      ctx,
      {
        projectId: project,
        revision: specText(spec, 'revision'),
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
  recheck: (ctx, spec, record) => recheckMovement(ctx, specText(spec, 'projectId'), record),
  lostAnswer: sendAnswerLost,
  // The service runs one operation per environment at a time.
  exclusive: (spec) => [environmentKey(spec.projectId, spec.environmentId)],
};
