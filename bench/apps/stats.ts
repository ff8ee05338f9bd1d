/** The value below which `q` (0..1) of the sorted samples fall (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** Median of samples (mean of the two middle ones for an even count). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A number with `digits` decimals, `-` when it is not finite (no samples). */
export function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '-';
}

/**
 * The median with the spread of the samples, as the result tables print it: `1.21 (1.09–1.21)`
 * (the median alone for a single sample).
 */
export function spread(samples: readonly number[], digits: number): string {
  const m = median(samples);
  if (samples.length < 2) return fmt(m, digits);
  return `${fmt(m, digits)} (${fmt(Math.min(...samples), digits)}–${fmt(Math.max(...samples), digits)})`;
}
