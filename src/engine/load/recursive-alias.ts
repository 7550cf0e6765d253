// Finds aliases that point into their own anchor (`spec: &s {self: *s}`): such a document is a
// cycle, not a tree; turned into JSON it never ends, so every later walk over it would hang.
import { isAlias, isCollection, isScalar, visit, type Document, type Node } from 'yaml';

/**
 * The first alias inside the node it refers to, or undefined when the document is a tree.
 * One pass in document order (an alias refers to the last anchor of its name before it), not
 * `Alias.resolve`, which walks the whole document per alias: quadratic on an alias-heavy file.
 */
export function findRecursiveAlias(doc: Document): Node | undefined {
  const anchored = new Map<string, Node>();
  let found: Node | undefined;
  visit(doc, {
    Node(_key, node, path) {
      if (isAlias(node)) {
        const target = anchored.get(node.source);
        if (target && isCollection(target) && path.includes(target)) {
          found = node;
          return visit.BREAK;
        }
      } else if ((isScalar(node) || isCollection(node)) && node.anchor) {
        anchored.set(node.anchor, node);
      }
      return undefined;
    },
  });
  return found;
}
