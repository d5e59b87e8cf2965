export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Probes until `ok` holds or `timeoutMs` passes, and returns the last value: the caller asserts on
 * it, so a timeout fails with what was last seen rather than a bare timeout.
 */
export async function until<T>(
  probe: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await sleep(100);
  }
}
