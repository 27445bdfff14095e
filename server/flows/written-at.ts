import { isPlainObject, toPointer } from './problems';

/** One layer of a resolved step: the base step or a variant's patch of it, with its pointer in the flow file. */
export interface Layer {
  pointer: string;
  value: unknown;
}

/**
 * Where the value at `segments` of a step resolved from `base` and `patches` (applied in order) is
 * written in the flow file: in the last patch that sets it (a merge patch sets a key it names, and
 * everything under a value that is not an object), else in the base step. A value that is nowhere
 * (a required property a patch removed) is looked up at its parent.
 */
export function writtenAt(segments: string[], base: Layer, patches: Layer[]): string {
  for (let k = segments.length; k > 0; k--) {
    const prefix = segments.slice(0, k);
    for (const layer of [...patches].reverse()) {
      const at = sets(layer.value, prefix);
      if (at) return layer.pointer + toPointer(at);
    }
    const at = sets(base.value, prefix);
    if (at) return base.pointer + toPointer(at);
  }
  return base.pointer;
}

/** The part of `prefix` a layer writes (all of it, or up to a value it replaces whole), or null if it leaves it to the layers below. */
function sets(value: unknown, prefix: string[]): string[] | null {
  let node = value;
  for (let i = 0; i < prefix.length; i++) {
    if (isPlainObject(node)) {
      if (!(prefix[i] in node)) return null;
      node = node[prefix[i]];
    } else if (Array.isArray(node) && /^\d+$/.test(prefix[i]) && Number(prefix[i]) < node.length) {
      node = node[Number(prefix[i])];
    } else return i === 0 ? null : prefix.slice(0, i);
  }
  return prefix;
}
