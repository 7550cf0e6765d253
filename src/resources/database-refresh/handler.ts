// How moor reads and changes a DatabaseRefresh through its provider. OWNER: providers helper (placeholder).
import type { JobHandler } from '../kind.js';

const notYet = (): never => { throw new Error('DatabaseRefresh handler not implemented yet'); };

export const job: JobHandler = {
  destructive: false,
  revision: (spec) => String(spec.revision),
  run: notYet,
};
