import type { Scenario } from './scenario.js';
import type { Row } from './throughput.bench.js';

/** What the side-by-side summary keeps of a figure. */
const summary = (r: Row) => ({
  per_second: r.per_second,
  p50_ms: r.p50_ms,
  p99_ms: r.p99_ms,
  share_of_minimal: r.share_of_minimal,
  cpu_share_of_minimal: r.cpu_share_of_minimal,
  statements_per_op: r.statements_per_op,
  cpu_ms_per_op: r.cpu_ms_per_op,
  pg_cpu_ms_per_op: r.pg_cpu_ms_per_op,
  minimal_per_second: r.minimal.per_second,
  minimal_cpu_ms_per_op: r.minimal.cpu_ms_per_op,
});

export type SideBySide = {
  tenants: number;
  figure: string;
  besides: string;
  figure_row: ReturnType<typeof summary>;
  besides_row: ReturnType<typeof summary>;
};

const HALF_PEAK = ' at half of peak';

/**
 * Each figure that names one to be summarised beside (`Scenario.besides`: an mdoc figure and its
 * SD-JWT VC twin) paired with it per tenant count, at peak and at half of peak when both have it.
 */
export function sideBySide(rows: Row[], scenarios: Scenario[]): SideBySide[] {
  const pairs: SideBySide[] = [];
  const find = (tenants: number, name: string, half: boolean) =>
    rows.find(
      (r) => r.tenants === tenants && (half ? r.name.startsWith(`${name}${HALF_PEAK}`) : r.name === name),
    );
  for (const s of scenarios) {
    if (!s.besides) continue;
    for (const tenants of new Set(rows.map((r) => r.tenants)))
      for (const half of [false, true]) {
        const figure = find(tenants, s.name, half);
        const besides = find(tenants, s.besides, half);
        if (figure && besides)
          pairs.push({
            tenants,
            figure: figure.name,
            besides: besides.name,
            figure_row: summary(figure),
            besides_row: summary(besides),
          });
      }
  }
  return pairs;
}

const line = (r: ReturnType<typeof summary>, name: string) =>
  `  ${String(r.per_second).padStart(5)}/s ${(r.share_of_minimal * 100).toFixed(1).padStart(5)}% of minimal ` +
  `(${r.minimal_per_second}/s; cpu share ${r.cpu_share_of_minimal === null ? '-' : `${(r.cpu_share_of_minimal * 100).toFixed(1)}%`}), ` +
  `p50 ${r.p50_ms} p99 ${r.p99_ms} ms, ${r.statements_per_op} stmt/op, cpu ${r.cpu_ms_per_op} + pg ${r.pg_cpu_ms_per_op ?? '-'} ms/op ` +
  `(minimal cpu ${r.minimal_cpu_ms_per_op}) | ${name}`;

/** The pairs on stderr after the run: each figure, and under it the one it is summarised beside. */
export function reportSideBySide(pairs: SideBySide[]) {
  if (pairs.length) process.stderr.write('side by side:\n');
  for (const p of pairs)
    process.stderr.write(
      `${String(p.tenants).padStart(2)}t\n${line(p.figure_row, p.figure)}\n${line(p.besides_row, p.besides)}\n`,
    );
}
