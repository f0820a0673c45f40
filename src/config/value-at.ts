/** A plain value (a parsed document's body) addressed by JSON pointer. */
import { isPlainObject } from '../util/plain.js';
import { splitPointer } from './yaml-positions.js';

/** The value at a pointer, or undefined. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const segment of splitPointer(pointer)) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isPlainObject(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}
