/**
 * The traffic of the fault test: operations started at a steady rate with a few in flight, each
 * retried until the service answers without a 5xx, as an integrator's client would. Every failed
 * try is kept with its time, so the report can say when the service was not answering and for how
 * long.
 */
export interface Failure {
  at: number;
  what: string;
}

export interface LoadReport {
  failures: Failure[];
  /** When each operation got its answer. */
  answeredAt: number[];
}

export type Operation = { what: string; run: () => Promise<Response> };

export async function runLoad(ops: Operation[], perSecond: number, inFlight: number): Promise<LoadReport> {
  const report: LoadReport = { failures: [], answeredAt: [] };
  const t0 = Date.now();
  let next = 0;
  const lane = async () => {
    for (;;) {
      const k = next++;
      const op = ops[k];
      if (!op) return;
      const due = t0 + (k * 1000) / perSecond;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      for (;;) {
        const answer = await op.run().then(
          async (res) => {
            await res.arrayBuffer().catch(() => undefined);
            return res.status < 500 ? undefined : `${res.status}`;
          },
          (e: Error) => e.message,
        );
        if (!answer) break;
        report.failures.push({ at: Date.now(), what: `${op.what}: ${answer}` });
        await new Promise((r) => setTimeout(r, 250));
      }
      report.answeredAt.push(Date.now());
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return report;
}
