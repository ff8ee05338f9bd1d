import type { ConfigField } from './ConfigClass.ts';

/**
 * The kinds of configuration fields, each parsing a submitted value the way the server's option
 * handlers do.
 *
 * @example
 * const fields = [uintField('msgs_new', '0'), boolField('read_only', 'no')];
 */

/** Free text, stored as given. */
export function stringField(name: string, defaultValue = ''): ConfigField {
  return { name, default: defaultValue, parse: (value) => value };
}

/** The server's truth words: yes, true, y, t, 1, on (any case). */
export function isTrueWord(value: string): boolean {
  return /^(yes|true|y|t|1|on)$/i.test(value.trim());
}

/** A yes/no option: like the server, any text is accepted and anything but a truth word is `no`. */
export function boolField(name: string, defaultValue: 'yes' | 'no'): ConfigField {
  return { name, default: defaultValue, parse: (value) => (isTrueWord(value) ? 'yes' : 'no') };
}

/**
 * An unsigned 32-bit number. As the server's parser: leading blanks allowed, no sign `-`, decimal,
 * `0x` hexadecimal or `0` octal, nothing after the digits. Stored in decimal.
 */
export function uintField(name: string, defaultValue = '0'): ConfigField {
  return {
    name,
    default: defaultValue,
    parse: (value) => {
      const match = /^\s*\+?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(value);
      if (!match?.[1]) return undefined;
      const digits = match[1];
      const parsed = /^0[xX]/.test(digits)
        ? BigInt(digits)
        : digits.length > 1 && digits.startsWith('0')
          ? BigInt(`0o${digits.slice(1)}`)
          : BigInt(digits);
      return parsed <= 0xffffffffn ? parsed.toString() : undefined;
    },
  };
}

/** A signed decimal integer within `[min, max]`. */
export function intRangeField(name: string, defaultValue: string, min: number, max: number): ConfigField {
  return {
    name,
    default: defaultValue,
    parse: (value) => {
      if (!/^\s*[+-]?\d+$/.test(value)) return undefined;
      const parsed = Number(value.trim());
      return parsed >= min && parsed <= max ? String(parsed) : undefined;
    },
  };
}

/** One of fixed words, matched without case, stored in its canonical spelling. */
export function choiceField(name: string, defaultValue: string, choices: readonly string[]): ConfigField {
  return {
    name,
    default: defaultValue,
    parse: (value) => choices.find((c) => c.toLowerCase() === value.trim().toLowerCase()),
  };
}

/** Accepted and ignored, never listed (the `type` field every configuration section has). */
export function hiddenField(name: string): ConfigField {
  return { name, default: '', parse: (value) => value, hidden: true };
}
