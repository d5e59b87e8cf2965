/**
 * Turns claim paths of a configuration (`mandatee.email`, `power[]`) into an @sd-jwt disclosure
 * frame for a concrete payload: `{ mandatee: { _sd: ['email'] }, power: { _sd: [0, 1] } }`.
 * A path whose claim is absent from the payload is skipped.
 */
export type Frame = { _sd?: (string | number)[]; [key: string]: unknown };

export function disclosureFrame(paths: string[], payload: Record<string, unknown>): Frame {
  const root: Frame = {};
  for (const path of paths) addPath(root, payload, path.split('.'));
  return root;
}

function addPath(frame: Frame, value: unknown, segments: string[]): void {
  const [head, ...rest] = segments;
  if (head === undefined || value === null || typeof value !== 'object') return;
  const everyElement = head.endsWith('[]');
  const name = everyElement ? head.slice(0, -2) : head;
  const child = (value as Record<string, unknown>)[name];
  if (child === undefined) return;
  if (rest.length === 0 && !everyElement) {
    frame._sd = [...(frame._sd ?? []), name];
    return;
  }
  const sub = (frame[name] ?? {}) as Frame;
  if (!everyElement) addPath(sub, child, rest);
  else if (Array.isArray(child)) {
    child.forEach((element, i) => {
      if (rest.length === 0) sub._sd = [...(sub._sd ?? []), i];
      else {
        const item = (sub[String(i)] ?? {}) as Frame;
        addPath(item, element, rest);
        if (Object.keys(item).length) sub[String(i)] = item;
      }
    });
  }
  if (Object.keys(sub).length) frame[name] = sub;
}
