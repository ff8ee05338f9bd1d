/**
 * A small seeded random source (mulberry32): the same seed gives the same faults, hang-ups and
 * delays on every run, so a failing run can be replayed from the seed printed in its test name.
 *
 * @example
 * const random = seededRandom(7);
 * random(); // 0.4873..., always the same first value for seed 7
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number in [0, below) from a random source. */
export function randomInt(random: () => number, below: number): number {
  return Math.floor(random() * below);
}
