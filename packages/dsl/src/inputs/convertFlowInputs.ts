import { describeValue } from '../schema/checkValue.ts';
import { parseDuration } from '../schema/s.ts';
import { didYouMean } from '../validate/suggest.ts';

/** The types an input can declare (`inputs.<name>.type`). */
export const INPUT_TYPES = ['string', 'number', 'boolean', 'duration', 'list', 'map'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

/** What a flow declares about one input (the `inputs` section of a flow or subflow). */
export interface InputDeclaration {
  readonly type: InputType;
  readonly default?: unknown;
  readonly required?: boolean;
}

/** One input that cannot be used, in words that name the input, its type and the declared inputs. */
export interface InputProblem {
  /** The input as given (or the missing required one). */
  readonly name: string;
  readonly kind: 'unknown' | 'wrong-type' | 'missing';
  readonly message: string;
}

export type InputConversion =
  | { readonly ok: true; readonly inputs: Record<string, unknown> }
  | { readonly ok: false; readonly problems: readonly InputProblem[] };

const WORDS: Record<InputType, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  duration: 'a duration (seconds, or 500ms, 30s, 2m, 1h)',
  list: 'a list (a JSON array, or items separated by commas)',
  map: 'a mapping (a JSON object)',
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One value converted to its declared type; `undefined` when it does not fit. Text is read the
 * way a command line writes it (`3`, `true`, `30s`, `a,b`, `{"k":1}`), so `--input`, scenario
 * files and TypeScript callers get the same values. A duration becomes a number of seconds
 * (the unit of a bare number everywhere in flows), so converting twice changes nothing.
 */
export function convertInputValue(type: InputType, value: unknown): unknown {
  const text = typeof value === 'string' ? value.trim() : undefined;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'number': {
      if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
      if (text === undefined || !/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text)) return undefined;
      return Number(text);
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'duration': {
      if (typeof value !== 'number' && text === undefined) return undefined;
      const ms = parseDuration(typeof value === 'number' ? value : text!);
      return ms === undefined ? undefined : ms / 1000;
    }
    case 'list': {
      if (Array.isArray(value)) return value;
      if (text === undefined) return undefined;
      if (text.startsWith('[')) {
        const parsed = parseJson(text);
        return Array.isArray(parsed) ? parsed : undefined;
      }
      return text === '' ? [] : text.split(',').map((item) => item.trim());
    }
    case 'map': {
      if (isPlainObject(value)) return value;
      const parsed = text === undefined ? undefined : parseJson(text);
      return isPlainObject(parsed) ? parsed : undefined;
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Checks and converts the inputs given to a flow against the inputs it declares: each value is
 * converted to its declared type, defaults fill the rest, and every problem is reported at once
 * (an undeclared input, a value that does not fit its type, a missing required input). The one
 * conversion behind `ringflow run --input`, scenario files, `testFlow` and `createFlowCallMachine`.
 *
 * @example
 * convertFlowInputs({ maxAttempts: { type: 'number', default: 3 } }, { maxAttempts: '2' })
 * // { ok: true, inputs: { maxAttempts: 2 } }
 */
export function convertFlowInputs(
  declared: Readonly<Record<string, InputDeclaration>>,
  given: Readonly<Record<string, unknown>>,
): InputConversion {
  const names = Object.keys(declared);
  const list = names.length > 0 ? names.map((n) => `${n} (${declared[n]!.type})`).join(', ') : 'none';
  const problems: InputProblem[] = [];
  const inputs: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const declaration = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (!declaration) {
      problems.push({
        name,
        kind: 'unknown',
        message: `the flow has no input "${name}".${didYouMean(name, names)} Declared inputs: ${list}.`,
      });
      continue;
    }
    const converted = convertInputValue(declaration.type, value);
    if (converted === undefined) {
      problems.push({
        name,
        kind: 'wrong-type',
        message: `input "${name}" is declared ${declaration.type}: expected ${WORDS[declaration.type]}, got ${describeValue(value)}. Declared inputs: ${list}.`,
      });
      continue;
    }
    inputs[name] = converted;
  }
  for (const [name, declaration] of Object.entries(declared)) {
    if (Object.hasOwn(inputs, name) || problems.some((p) => p.name === name)) continue;
    if (declaration.default !== undefined)
      inputs[name] = convertInputValue(declaration.type, declaration.default) ?? declaration.default;
    else if (declaration.required)
      problems.push({
        name,
        kind: 'missing',
        message: `input "${name}" (${declaration.type}) is required and was not given. Declared inputs: ${list}.`,
      });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, inputs };
}
