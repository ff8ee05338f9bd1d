/** Optimal string alignment distance (Levenshtein plus adjacent swaps, the commonest typo). */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The closest known name to a misspelt one, or undefined when nothing is close enough
 * (at most a third of the letters differ; case is ignored).
 * @example suggest('plya', ['play', 'record']) // 'play'
 */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined) return undefined;
  // Short names need a closer match: "b" is not a typo of "a".
  const close = bestDistance <= Math.max(1, Math.ceil(Math.max(word.length, best.length) / 3));
  return close && bestDistance < Math.min(word.length, best.length) ? best : undefined;
}

/** `Did you mean "play"?` or an empty string. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const match = suggest(word, candidates);
  return match ? ` Did you mean "${match}"?` : '';
}
