// Finds aliases that point into their own anchor (`spec: &s {self: *s}`): such a document is a
// cycle, not a tree; turned into JSON it never ends, so every later walk over it would hang.
import { isCollection, visit, type Document, type Node } from 'yaml';

/** The first alias inside the node it refers to, or undefined when the document is a tree. */
export function findRecursiveAlias(doc: Document): Node | undefined {
  let found: Node | undefined;
  visit(doc, {
    Alias(_key, alias, path) {
      const target = alias.resolve(doc);
      if (target && isCollection(target) && path.includes(target)) {
        found = alias;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
