import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what the last full collection kept, in percent: 50 (1.5 times). By default
 * V8 lets it grow up to 4 times when collections are quick, which on a read-heavy service holding ~100 MB of
 * caches means peaks of 400 MB of mostly garbage; at 1.5 times the process stays near its budgets (see "Caches
 * and memory" in the README), for a few percent more CPU in the collector. Not set when the operator chose a
 * value (`node --heap-growing-percent=N`, or in NODE_OPTIONS).
 */
export const HEAP_GROWING_PERCENT = 50;

/** Applies HEAP_GROWING_PERCENT unless the process was started with its own. */
export function boundHeapGrowth(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('heap-growing-percent'));
  if (!given) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
