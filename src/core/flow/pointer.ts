/** Reads a JSON pointer (RFC 6901) such as "/reasons/0"; undefined when absent. */
export function readPointer(data: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return data;
  let node: unknown = data;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export function isPointer(value: string): boolean {
  return value.startsWith('/');
}
