// How moor reads and changes a Check through its provider. OWNER: providers helper (placeholder).
import type { CheckHandler } from '../kind.js';

const notYet = (): never => { throw new Error('Check handler not implemented yet'); };

export const check: CheckHandler = {
  evaluate: notYet,
};
