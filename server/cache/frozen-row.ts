/**
 * A cached row is shared by every request of the node, so it is a plain, deeply frozen copy: not
 * an entity any EntityManager manages (a flush can never write it back), and a caller that tried
 * to change it would get a TypeError instead of silently changing it for everyone.
 */
export function frozenRow<T extends object>(row: T): T {
  return deepFreeze(structuredClone({ ...row })) as T;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
