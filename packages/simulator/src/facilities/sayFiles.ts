/**
 * The sound files the server plays to say digits, numbers and characters in English
 * (`digits:`, `number:` and `characters:` media), in order.
 */

/**
 * Files for a digit string, one per character: `digits/0`..`digits/9`, `*`, `#` and `-`; other
 * characters are skipped, as the server does.
 *
 * @example
 * digitFiles('1#'); // ['digits/1', 'digits/pound']
 */
export function digitFiles(text: string): string[] {
  const files: string[] = [];
  for (const char of text) {
    if (char >= '0' && char <= '9') files.push(`digits/${char}`);
    else if (char === '*') files.push('digits/star');
    else if (char === '#') files.push('digits/pound');
    else if (char === '-') files.push('digits/minus');
  }
  return files;
}

/**
 * Files for a number said in words, English style (no "and"): `-1234` is minus, one, thousand,
 * two, hundred, thirty, four. Returns undefined from a billion up, which the English rules of the
 * server cannot say.
 *
 * @example
 * numberFiles(42); // ['digits/40', 'digits/2']
 */
export function numberFiles(value: number): string[] | undefined {
  if (!Number.isInteger(value) || Math.abs(value) >= 1_000_000_000) return undefined;
  if (value === 0) return ['digits/0'];
  const files: string[] = value < 0 ? ['digits/minus'] : [];
  let rest = Math.abs(value);
  while (rest > 0) {
    if (rest < 20) {
      files.push(`digits/${rest}`);
      rest = 0;
    } else if (rest < 100) {
      files.push(`digits/${Math.floor(rest / 10) * 10}`);
      rest %= 10;
    } else if (rest < 1000) {
      files.push(`digits/${Math.floor(rest / 100)}`, 'digits/hundred');
      rest %= 100;
    } else if (rest < 1_000_000) {
      files.push(...(numberFiles(Math.floor(rest / 1000)) ?? []), 'digits/thousand');
      rest %= 1000;
    } else {
      files.push(...(numberFiles(Math.floor(rest / 1_000_000)) ?? []), 'digits/million');
      rest %= 1_000_000;
    }
  }
  return files;
}

const characterNames: Readonly<Record<string, string>> = {
  '*': 'digits/star',
  '#': 'digits/pound',
  '!': 'letters/exclaimation-point',
  '@': 'letters/at',
  $: 'letters/dollar',
  '-': 'letters/dash',
  '.': 'letters/dot',
  '=': 'letters/equals',
  '+': 'letters/plus',
  '/': 'letters/slash',
  ' ': 'letters/space',
};

/**
 * Files for spelling text: letters (any case) as `letters/x`, digits as `digits/n`, and the named
 * symbols (the server's own `exclaimation-point` spelling included). Other characters are skipped.
 *
 * @example
 * characterFiles('A1@'); // ['letters/a', 'digits/1', 'letters/at']
 */
export function characterFiles(text: string): string[] {
  const files: string[] = [];
  for (const char of text) {
    const named = characterNames[char];
    if (named) files.push(named);
    else if (char >= '0' && char <= '9') files.push(`digits/${char}`);
    else if (/^[a-z]$/i.test(char)) files.push(`letters/${char.toLowerCase()}`);
  }
  return files;
}
