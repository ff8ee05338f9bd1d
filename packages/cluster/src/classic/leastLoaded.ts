/**
 * What publishing one call's events costs the event connection holder, in calls it drives: the
 * holder relays every call of the cluster besides driving its own, so each call in the cluster
 * counts this much on the holder's load when new calls are spread. With it, 2 workers share new
 * calls 3:5 (the holder 37.5%), 4 workers 1:15 per other worker (the holder 6%). Profiles under a
 * CPU quota (bench/cluster-scale.ts --cpu-prof, 2 workers at 0.2 core, 25 calls/s): with an even
 * split the holder used 1.9x the other worker's CPU; with this weight (and its publishes batched)
 * still 1.7x, so a higher weight (~0.5) may balance 2 workers better: not measured yet.
 */
export const HOLDER_PUBLISHING_WEIGHT = 0.25;

/**
 * The worker a new call goes to: the one with the lowest load, the holder's counting
 * {@link HOLDER_PUBLISHING_WEIGHT} of every call in the cluster on top of its own (ties: the
 * first name in order, so that every holder picks alike); `fallback` when no worker is known.
 *
 * @example
 * leastLoaded(new Map([['a', 3], ['b', 3]]), 'a', 'a'); // 'b': a holds the event connection
 */
export function leastLoaded(
  loads: ReadonlyMap<string, number>,
  holder: string | undefined,
  fallback: string,
): string {
  let total = 0;
  for (const load of loads.values()) total += load;
  let best = fallback;
  let least = Number.POSITIVE_INFINITY;
  for (const [worker, load] of [...loads].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const weighed = worker === holder ? load + HOLDER_PUBLISHING_WEIGHT * total : load;
    if (weighed < least) {
      best = worker;
      least = weighed;
    }
  }
  return best;
}
