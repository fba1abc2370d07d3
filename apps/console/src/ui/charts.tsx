import { formatStatValue, type StatUnit, TICKS_PER_SECOND } from '@statboard/sdk/format';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { DataTable } from './data-table.tsx';

export interface Series {
  label: string;
  /**
   * Its colour, dash and marker (`s1` … `s4`): a solid line with circles, dashes with squares, dots with
   * triangles, dash-dots with diamonds, so two lines that run together stay apart, in any colour vision.
   */
  tone: 's1' | 's2' | 's3' | 's4';
  values: number[];
}

const HEIGHT = 200;
const FONT = 12;
/** The width of a character of the axis labels, roughly (system-ui at 12 px). */
const CHAR = 7.2;
const PAD = { top: 12, right: 8, bottom: 26 };
const DASH: Record<Series['tone'], string | undefined> = { s1: undefined, s2: '7 4', s3: '2 4', s4: '10 4 2 4' };

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

/** The width of the element, measured before the browser paints it and kept up to date. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** A series' marker at (x, y): circle, square, triangle or diamond by its tone; `title` shows on hover. */
function Marker({ tone, x, y, title }: { tone: Series['tone']; x: number; y: number; title?: string }) {
  const r = tone === 's1' ? 5 : 4;
  const cls = `dot ${tone}`;
  const tip = title ? <title>{title}</title> : null;
  switch (tone) {
    case 's2':
      return (
        <rect className={cls} x={x - r} y={y - r} width={2 * r} height={2 * r}>
          {tip}
        </rect>
      );
    case 's3':
      return (
        <polygon className={cls} points={`${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}`}>
          {tip}
        </polygon>
      );
    case 's4':
      return (
        <polygon className={cls} points={`${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}`}>
          {tip}
        </polygon>
      );
    default:
      return (
        <circle className={cls} cx={x} cy={y} r={r}>
          {tip}
        </circle>
      );
  }
}

/** The legend's sample of a series: its colour for bars; its dash and marker for lines. */
function Sample({ series, kind }: { series: Series; kind: 'bars' | 'lines' }) {
  if (kind === 'bars') return <span className={`swatch ${series.tone}`} />;
  return (
    <svg width="28" height="12" viewBox="0 0 28 12" aria-hidden="true">
      <line className={`line ${series.tone}`} x1="1" x2="27" y1="6" y2="6" strokeDasharray={DASH[series.tone]} />
      <Marker tone={series.tone} x={14} y={6} />
    </svg>
  );
}

/**
 * A chart of one or more series over the same buckets (stacked bars, or lines), drawn at the width it is given
 * (a fixed height, so nothing moves when it appears), with labels that never overlap: as many time labels as fit,
 * the first and last kept inside, values on the axis in the unit people read. Its numbers are in a table for
 * screen readers and for whoever wants them.
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
  const { ref, width } = useWidth();
  const n = labels.length;
  const totals = labels.map((_, i) => series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
  const peak = kind === 'bars' ? Math.max(0, ...totals) : Math.max(0, ...series.flatMap((s) => s.values));
  const max = niceMax(peak, unit);
  const ticks = [0, max / 2, max].map((v) => ({ v, text: formatStatValue(v, unit, { style: 'axis' }) }));
  const left = Math.max(...ticks.map((t) => t.text.length)) * CHAR + 12;
  const innerW = Math.max(0, width - left - PAD.right);
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const band = innerW / Math.max(1, n);
  const x = (i: number) => left + (n <= 1 ? innerW / 2 : i * band + band / 2);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  // As many time labels as fit side by side with a gap, evenly spaced, always the last (the latest bucket).
  const labelW = Math.max(1, ...labels.map((l) => l.length)) * CHAR + 24;
  const fit = Math.max(1, Math.floor(innerW / labelW));
  const every = Math.max(1, Math.ceil(n / fit));
  const shown = labels.map((_, i) => (n - 1 - i) % every === 0);
  const anchor = (i: number, text: string): { x: number; anchor: 'start' | 'middle' | 'end' } => {
    const half = (text.length * CHAR) / 2;
    if (x(i) - half < left) return { x: Math.max(left, x(i) - band / 2), anchor: 'start' };
    if (x(i) + half > width - PAD.right) return { x: width - PAD.right, anchor: 'end' };
    return { x: x(i), anchor: 'middle' };
  };
  // A solid line is drawn last, over the dashed ones, which show through its gaps where they run together.
  const drawOrder = [...series].reverse();
  return (
    <figure className="chart" aria-labelledby={`${id}-t`}>
      <figcaption id={`${id}-t`}>
        <span className="chart-title">{title}</span>
        <span className="legend" aria-hidden="true">
          {series.map((s) => (
            <span key={s.label} className="key">
              <Sample series={s} kind={kind} />
              {s.label}
            </span>
          ))}
        </span>
      </figcaption>
      <div ref={ref} className="chart-area">
        {width > 0 ? (
          <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-label={summary}>
            {ticks.map((t) => (
              <g key={t.v}>
                <line className="grid" x1={left} x2={width - PAD.right} y1={y(t.v)} y2={y(t.v)} />
                <text className="axis" x={left - 8} y={y(t.v)} dy="0.35em" textAnchor="end" fontSize={FONT}>
                  {t.text}
                </text>
              </g>
            ))}
            {labels.map((l, i) => {
              if (!shown[i]) return null;
              const at = anchor(i, l);
              return (
                <text key={l} className="axis" x={at.x} y={HEIGHT - 6} textAnchor={at.anchor} fontSize={FONT}>
                  {l}
                </text>
              );
            })}
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
                            x={x(i) - band * 0.35}
                            width={Math.max(1, band * 0.7)}
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
              : drawOrder.map((s) => (
                  <g key={s.label}>
                    <polyline
                      className={`line ${s.tone}`}
                      fill="none"
                      strokeDasharray={DASH[s.tone]}
                      points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')}
                    />
                    {band >= 14 || n === 1
                      ? s.values.map((v, i) => (
                          <Marker
                            // biome-ignore lint/suspicious/noArrayIndexKey: one marker per bucket, in order
                            key={i}
                            tone={s.tone}
                            x={x(i)}
                            y={y(v)}
                            title={`${labels[i]}, ${s.label}: ${formatStatValue(v, unit)}`}
                          />
                        ))
                      : null}
                  </g>
                ))}
          </svg>
        ) : null}
      </div>
      <details>
        <summary>Show the numbers</summary>
        <DataTable
          caption={title}
          rows={labels.map((label, i) => ({ label, i }))}
          rowKey={(r) => String(r.i)}
          rowName={(r) => r.label}
          empty="No numbers."
          columns={[
            { label: 'Time', rowHeader: true, cell: (r) => r.label, width: 7 },
            ...series.map((s) => ({
              label: s.label,
              numeric: true,
              cell: (r: { i: number }) => formatStatValue(s.values[r.i] ?? 0, unit),
            })),
          ]}
        />
      </details>
    </figure>
  );
}
