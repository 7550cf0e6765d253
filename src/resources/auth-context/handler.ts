// How moor reads and changes a AuthContext through its provider. OWNER: providers helper (placeholder).
import type { ResourceHandler } from '../kind.js';

const notYet = (): never => { throw new Error('AuthContext handler not implemented yet'); };

export const resource: ResourceHandler = {
  read: notYet,
  create: notYet,
  update: notYet,
  delete: notYet,
};
