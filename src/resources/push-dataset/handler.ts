// How moor reads and changes a PushDataset through its provider. OWNER: providers helper (placeholder).
import type { ResourceHandler } from '../kind.js';

const notYet = (): never => { throw new Error('PushDataset handler not implemented yet'); };

export const resource: ResourceHandler = {
  read: notYet,
  create: notYet,
  update: notYet,
  delete: notYet,
};
