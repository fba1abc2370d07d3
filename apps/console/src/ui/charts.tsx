import { formatStatValue, type StatUnit, TICKS_PER_SECOND } from '@statboard/sdk/format';
import { useId } from 'react';

export interface Series {
  label: string;
  /** A CSS class that colours it (`s1` … `s4`), defined in styles.css for both themes. */
  tone: 's1' | 's2' | 's3' | 's4';
  values: number[];
}

const W = 720;
const H = 220;
// Room on the left for axis labels with units ("30 min", "2,000 km").
const PAD = { top: 14, right: 14, bottom: 30, left: 84 };
/** The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `n`. */
function roundUp(n: number): number {
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}

/** The top of the axis: a round number in what people read (hours of play, not 72,000 ticks). */
function niceMax(n: number, unit: StatUnit): number {
  if (unit !== 'ticks') return n <= 4 ? 4 : roundUp(n);
  const seconds = n / TICKS_PER_SECOND;
  if (seconds <= 0) return 60 * TICKS_PER_SECOND;
  const scale = seconds < 60 ? 1 : seconds < 3600 ? 60 : seconds < 172_800 ? 3600 : 86_400;
  return roundUp(seconds / scale) * scale * TICKS_PER_SECOND;
}

/**
 * A chart of one or more series over the same buckets (stacked bars, or lines), drawn in SVG at a fixed aspect
 * ratio (no layout shift), with its numbers in a table for screen readers and for whoever wants them.
 */
export function Chart({
  title,
  labels,
  series,
  kind,
  summary,
  unit = 'count',
}: {
  title: string;
  /** One label per bucket (its time, written for people). */
  labels: string[];
  series: Series[];
  kind: 'bars' | 'lines';
  /** One sentence saying what the chart shows, read by screen readers instead of the picture. */
  summary: string;
  /** What the values count: axes, tooltips and the table of numbers are written in it. */
  unit?: StatUnit;
}) {
  const id = useId();
  const n = labels.length;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const totals = labels.map((_, i) => series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
  const peak = kind === 'bars' ? Math.max(0, ...totals) : Math.max(0, ...series.flatMap((s) => s.values));
  const max = niceMax(peak, unit);
  const x = (i: number) => PAD.left + (n <= 1 ? innerW / 2 : (i * innerW) / n);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const band = innerW / Math.max(1, n);
  const ticks = [0, max / 2, max];
  const every = Math.max(1, Math.ceil(n / 5));
  return (
    <figure className="chart" aria-labelledby={`${id}-t`}>
      <figcaption id={`${id}-t`}>
        <span className="chart-title">{title}</span>
        <span className="legend" aria-hidden="true">
          {series.map((s) => (
            <span key={s.label} className={`key ${s.tone}`}>
              {s.label}
            </span>
          ))}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} preserveAspectRatio="none">
        {ticks.map((t) => (
          <g key={t}>
            <line className="grid" x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
            <text className="axis" x={PAD.left - 8} y={y(t) + 6} textAnchor="end">
              {formatStatValue(t, unit, { style: 'axis' })}
            </text>
          </g>
        ))}
        {labels.map((l, i) =>
          i % every === 0 ? (
            <text key={l} className="axis" x={x(i) + band / 2} y={H - 8} textAnchor="middle">
              {l}
            </text>
          ) : null,
        )}
        {kind === 'bars'
          ? labels.map((l, i) => {
              let base = 0;
              return (
                <g key={l}>
                  {series.map((s) => {
                    const v = s.values[i] ?? 0;
                    const top = y(base + v);
                    const h = y(base) - top;
                    base += v;
                    return v > 0 ? (
                      <rect
                        key={s.label}
                        className={`bar ${s.tone}`}
                        x={x(i) + band * 0.15}
                        width={band * 0.7}
                        y={top}
                        height={Math.max(h, 1)}
                      >
                        <title>{`${l}, ${s.label}: ${formatStatValue(v, unit)}`}</title>
                      </rect>
                    ) : null;
                  })}
                </g>
              );
            })
          : series.map((s) => (
              <g key={s.label}>
                <polyline
                  className={`line ${s.tone}`}
                  fill="none"
                  points={s.values.map((v, i) => `${x(i) + band / 2},${y(v)}`).join(' ')}
                />
                {n <= 40
                  ? s.values.map((v, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: one dot per bucket, in order
                      <circle key={i} className={`dot ${s.tone}`} cx={x(i) + band / 2} cy={y(v)} r={4}>
                        <title>{`${labels[i]}, ${s.label}: ${formatStatValue(v, unit)}`}</title>
                      </circle>
                    ))
                  : null}
              </g>
            ))}
      </svg>
      <details>
        <summary>Show the numbers</summary>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className="num">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((l, i) => (
                <tr key={l}>
                  <th scope="row">{l}</th>
                  {series.map((s) => (
                    <td key={s.label} className="num">
                      {formatStatValue(s.values[i] ?? 0, unit)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
