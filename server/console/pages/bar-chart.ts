import { escapeHtml } from '../../http/escape-html.js';

export interface Series {
  label: string;
  /** CSS class of its bars (colours live in the stylesheet, the CSP allows no inline styles). */
  className: 'bar-a' | 'bar-b';
  values: number[];
}

const W = 360;
const H = 160;
const PAD = 24;

/**
 * Grouped bars as inline SVG, drawn here (no chart library, nothing fetched): one group per day or
 * category, one bar per series. The figure's table beside it carries the same numbers for screen
 * readers, so the SVG itself is hidden from them.
 */
export function barChart(title: string, labels: string[], series: Series[]): string {
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const group = (W - PAD * 2) / Math.max(labels.length, 1);
  const bar = Math.max(2, (group - 4) / series.length);
  const bars = labels
    .flatMap((_, i) =>
      series.map((s, j) => {
        const v = s.values[i] ?? 0;
        const h = ((H - PAD * 2) * v) / max;
        const x = PAD + i * group + j * bar + 2;
        return `<rect class="${s.className}" x="${x.toFixed(1)}" y="${(H - PAD - h).toFixed(1)}" width="${(bar - 1).toFixed(1)}" height="${h.toFixed(1)}"><title>${escapeHtml(`${labels[i]}: ${v} ${s.label}`)}</title></rect>`;
      }),
    )
    .join('');
  const ticks = labels
    .map((l, i) =>
      i % Math.ceil(labels.length / 7) === 0
        ? `<text x="${(PAD + i * group + group / 2).toFixed(1)}" y="${H - 8}" text-anchor="middle">${escapeHtml(l)}</text>`
        : '',
    )
    .join('');
  const svg = `<svg viewBox="0 0 ${W} ${H}" aria-hidden="true" focusable="false"><line class="axis" x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}"/>
<text x="${PAD}" y="12">${max}</text>${bars}${ticks}</svg>`;
  const head = `<tr><th scope="col">When</th>${series.map((s) => `<th scope="col">${escapeHtml(s.label)}</th>`).join('')}</tr>`;
  const rows = labels
    .map(
      (l, i) =>
        `<tr><th scope="row">${escapeHtml(l)}</th>${series.map((s) => `<td>${s.values[i] ?? 0}</td>`).join('')}</tr>`,
    )
    .join('');
  const legend = series
    .map((s) => `<span class="legend ${s.className}">${escapeHtml(s.label)}</span>`)
    .join(' · ');
  return `<figure class="chart"><figcaption><strong>${escapeHtml(title)}</strong> (${legend})</figcaption>${svg}
<details><summary>The numbers</summary><table>${head}${rows}</table></details></figure>`;
}
