const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/**
 * Reads an integer query value the way the real server's C code does (`atoi` into an `int`):
 * leading blanks and sign allowed, digits up to the first other character, `0` when there are
 * none, and the result wrapped to 32 bits. `'abc'` -> 0, `'42x'` -> 42, `undefined` -> 0.
 * Numbers are truncated and wrapped the same way.
 *
 * @example
 * parseCInt('  -3'); // -3
 * parseCInt('4294967297'); // 1
 */
export function parseCInt(value: number | string | undefined): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 0;
    return Number(BigInt.asIntN(32, BigInt(Math.trunc(value))));
  }
  const match = /^[\s]*([+-]?\d+)/.exec(value);
  if (!match?.[1]) return 0;
  let parsed = BigInt(match[1]);
  // strtol saturates at the limits of a long before the cast to int keeps the low 32 bits.
  if (parsed < int64Min) parsed = int64Min;
  if (parsed > int64Max) parsed = int64Max;
  return Number(BigInt.asIntN(32, parsed));
}
