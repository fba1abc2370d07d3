import { h } from './html.ts';

export interface ChartPoint {
  /** Milliseconds since the epoch. */
  at: number;
  value: number;
}

const W = 480;
const H = 200;
const PAD = { left: 70, right: 8, top: 14, bottom: 30 };

/**
 * A value over time as an inline SVG drawn on the server (no script): a step line (a value holds until the next
 * point), the first and last day on the x axis and the smallest and largest value on the y axis, labelled with
 * `format`. Its name and a sentence for screen readers are in `<title>` and `<desc>`.
 */
export function lineChart(o: {
  id: string;
  title: string;
  summary: string;
  points: readonly ChartPoint[];
  from: number;
  to: number;
  format: (value: number) => string;
  day: (at: number) => string;
}): string {
  const pts = o.points.filter((p) => p.at >= o.from && p.at <= o.to);
  const values = pts.map((p) => p.value);
  const lo = values.length ? Math.min(...values) : 0;
  const hi = values.length ? Math.max(...values) : 1;
  const span = hi - lo || Math.max(1, Math.abs(hi));
  const yMin = hi === lo ? lo - span / 2 : lo;
  const yMax = hi === lo ? hi + span / 2 : hi;
  const x = (t: number) => PAD.left + ((t - o.from) / (o.to - o.from || 1)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - yMin) / (yMax - yMin || 1)) * (H - PAD.top - PAD.bottom);
  let path = '';
  for (const [i, p] of pts.entries()) {
    const px = x(p.at).toFixed(1);
    const py = y(p.value).toFixed(1);
    path += i === 0 ? `M${px} ${py}` : `H${px}V${py}`;
  }
  const last = pts.at(-1);
  if (last) path += `H${x(o.to).toFixed(1)}`;
  const dots =
    pts.length <= 40
      ? pts.map((p) => `<circle class="dot" cx="${x(p.at).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="3"/>`).join('')
      : '';
  const base = H - PAD.bottom;
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${o.id}-t ${o.id}-d">
<title id="${o.id}-t">${h(o.title)}</title><desc id="${o.id}-d">${h(o.summary)}</desc>
<line class="grid" x1="${PAD.left}" y1="${PAD.top}" x2="${W - PAD.right}" y2="${PAD.top}"/>
<line class="grid" x1="${PAD.left}" y1="${base}" x2="${W - PAD.right}" y2="${base}"/>
<text x="${PAD.left - 6}" y="${PAD.top + 4}" text-anchor="end">${h(o.format(yMax))}</text>
<text x="${PAD.left - 6}" y="${base}" text-anchor="end">${h(o.format(yMin))}</text>
<text x="${PAD.left}" y="${H - 8}">${h(o.day(o.from))}</text>
<text x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${h(o.day(o.to))}</text>
${path ? `<path class="line" d="${path}"/>` : ''}${dots}
</svg>`;
}

/**
 * The sentence under a chart of `name` (and its `<desc>`): no change, the one change and its day, or where the
 * value went from and to.
 */
export function chartSummary(
  name: string,
  points: readonly ChartPoint[],
  format: (value: number) => string,
  day: (at: number) => string,
): string {
  if (points.length === 0) return `No change of ${name} in the last 30 days.`;
  const first = points[0]!;
  if (points.length === 1)
    return `${name} changed once in the last 30 days: ${format(first.value)} on ${day(first.at)}.`;
  return `${name} went from ${format(first.value)} to ${format(points[points.length - 1]!.value)} in the last 30 days.`;
}
