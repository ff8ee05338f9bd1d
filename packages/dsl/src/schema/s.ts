/**
 * A small typed schema language: the one model of the flow format. From a schema we get the
 * TypeScript type of a document (`Infer<typeof schema>`), the validator that reports every problem
 * with a path (`checkValue`), and the published JSON Schema (`toJsonSchema`). Hand-written rather
 * than a general library because the format needs three things those libraries do badly: one-key
 * step objects with "did you mean" on the key, value-or-expression fields, and error messages that
 * say how to fix the flow.
 */

/** Documentation carried into the JSON Schema (editors show it on hover). */
export interface Meta {
  readonly description?: string;
  readonly examples?: readonly unknown[];
  readonly default?: unknown;
}

/** A semantic check on a literal value; returns the problem in words, or undefined when valid. */
export interface Refinement {
  readonly code: 'invalid-value' | 'invalid-media' | 'invalid-duration';
  readonly test: (value: unknown) => string | undefined;
}

export type SchemaNode =
  | {
      readonly kind: 'string';
      readonly enum?: readonly string[];
      readonly pattern?: string;
      readonly patternHint?: string;
      readonly meta: Meta;
      readonly refine?: Refinement;
    }
  | {
      readonly kind: 'number';
      readonly integer: boolean;
      readonly min?: number;
      readonly max?: number;
      readonly meta: Meta;
    }
  | { readonly kind: 'boolean'; readonly meta: Meta }
  /** Nothing (`key:` with no value, or `~`): for entries whose value may be left empty. */
  | { readonly kind: 'null'; readonly meta: Meta }
  /** Any JSON value; with `expressions`, each `{ expr }` in it (at any depth) is an expression. */
  | { readonly kind: 'any'; readonly meta: Meta; readonly expressions?: boolean }
  | { readonly kind: 'array'; readonly items: SchemaNode; readonly minItems?: number; readonly meta: Meta }
  | {
      readonly kind: 'object';
      readonly props: Readonly<Record<string, SchemaNode>>;
      readonly required: readonly string[];
      readonly meta: Meta;
    }
  | {
      readonly kind: 'record';
      readonly values: SchemaNode;
      readonly keyPattern?: string;
      readonly keyHint?: string;
      readonly meta: Meta;
    }
  | { readonly kind: 'union'; readonly options: readonly SchemaNode[]; readonly meta: Meta }
  | { readonly kind: 'expr'; readonly inner: SchemaNode; readonly meta: Meta }
  | { readonly kind: 'condition'; readonly meta: Meta }
  | {
      readonly kind: 'keyed';
      /** What one entry is called in messages ("step"). */
      readonly noun: string;
      readonly branches: Readonly<Record<string, SchemaNode>>;
      /** Branch names that may be written as a bare string (`- answer`). */
      readonly bare: readonly string[];
      readonly meta: Meta;
    }
  | { readonly kind: 'named'; readonly name: string; readonly node: () => SchemaNode };

/** A schema node that carries the TypeScript type of the values it accepts. */
export interface Schema<T> {
  readonly node: SchemaNode;
  /** Phantom: never set, only used for inference. */
  readonly __type?: T;
}

/** Marks an object property as optional. */
export interface Optional<T> {
  readonly optional: Schema<T>;
}

export type Infer<S> = S extends Schema<infer T> ? T : S extends Optional<infer T> ? T : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type PropShapes = Record<string, Schema<unknown> | Optional<unknown>>;
export type InferProps<P extends PropShapes> = Simplify<
  { -readonly [K in keyof P as P[K] extends Optional<unknown> ? never : K]: Infer<P[K]> } & {
    -readonly [K in keyof P as P[K] extends Optional<unknown> ? K : never]?: Infer<P[K]>;
  }
>;

/** The `{ expr: "..." }` form of a value computed by an expression. */
export interface ExprValue {
  readonly expr: string;
}

/** A field that is either a literal of type T or one whole expression. */
export type Value<T> = T | ExprValue;

/** Written as a number of seconds, or a string with a unit: `500ms`, `5s`, `2m`, `1h`. */
export type Duration = number | string;

const DURATION_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/;

/**
 * Parses a duration into milliseconds; a bare number is seconds.
 * @example parseDuration('1.5s') // 1500
 */
export function parseDuration(value: Duration): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
  const m = DURATION_PATTERN.exec(value);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
  return Math.round(n * factor);
}

function wrap<T>(node: SchemaNode): Schema<T> {
  return { node };
}

/** Schema builders. */
export const s = {
  string(
    options: Meta & { pattern?: RegExp; patternHint?: string; refine?: Refinement } = {},
  ): Schema<string> {
    const { pattern, patternHint, refine, ...meta } = options;
    return wrap({ kind: 'string', pattern: pattern?.source, patternHint, refine, meta });
  },
  enum<const E extends readonly string[]>(values: E, meta: Meta = {}): Schema<E[number]> {
    return wrap({ kind: 'string', enum: values, meta });
  },
  number(options: Meta & { min?: number; max?: number } = {}): Schema<number> {
    const { min, max, ...meta } = options;
    return wrap({ kind: 'number', integer: false, min, max, meta });
  },
  integer(options: Meta & { min?: number; max?: number } = {}): Schema<number> {
    const { min, max, ...meta } = options;
    return wrap({ kind: 'number', integer: true, min, max, meta });
  },
  boolean(meta: Meta = {}): Schema<boolean> {
    return wrap({ kind: 'boolean', meta });
  },
  /** Nothing: in a union, lets a value be left empty (`moderator:`). */
  null(meta: Meta = {}): Schema<null> {
    return wrap({ kind: 'null', meta });
  },
  /** Any JSON value (variables, webhook bodies). */
  any(meta: Meta = {}): Schema<unknown> {
    return wrap({ kind: 'any', meta });
  },
  /**
   * A JSON value in which each `{ expr }`, at any depth, is an expression evaluated when the step
   * runs (a webhook's body: `{ caller: { expr: "call.caller.number" }, source: ivr }`).
   */
  template(meta: Meta = {}): Schema<unknown> {
    return wrap({ kind: 'any', meta, expressions: true });
  },
  array<T>(items: Schema<T>, options: Meta & { minItems?: number } = {}): Schema<T[]> {
    const { minItems, ...meta } = options;
    return wrap({ kind: 'array', items: items.node, minItems, meta });
  },
  object<P extends PropShapes>(props: P, meta: Meta = {}): Schema<InferProps<P>> {
    const nodes: Record<string, SchemaNode> = {};
    const required: string[] = [];
    for (const [key, shape] of Object.entries(props)) {
      if ('optional' in shape) nodes[key] = shape.optional.node;
      else {
        nodes[key] = shape.node;
        required.push(key);
      }
    }
    return wrap({ kind: 'object', props: nodes, required, meta });
  },
  record<T>(
    values: Schema<T>,
    options: Meta & { keyPattern?: RegExp; keyHint?: string } = {},
  ): Schema<Record<string, T>> {
    const { keyPattern, keyHint, ...meta } = options;
    return wrap({ kind: 'record', values: values.node, keyPattern: keyPattern?.source, keyHint, meta });
  },
  union<const S extends readonly Schema<unknown>[]>(options: S, meta: Meta = {}): Schema<Infer<S[number]>> {
    return wrap({ kind: 'union', options: options.map((o) => o.node), meta });
  },
  optional<T>(schema: Schema<T>): Optional<T> {
    return { optional: schema };
  },
  /** A literal of the inner type, or `{ expr: "<CEL>" }` computed when the step runs. */
  value<T>(inner: Schema<T>, meta: Meta = {}): Schema<Value<T>> {
    return wrap({ kind: 'expr', inner: inner.node, meta });
  },
  /** A condition: a CEL expression string (or a boolean literal). */
  condition(meta: Meta = {}): Schema<string | boolean> {
    return wrap({ kind: 'condition', meta });
  },
  duration(meta: Meta = {}): Schema<Duration> {
    return wrap({
      kind: 'union',
      options: [
        { kind: 'number', integer: false, min: 0, meta: { description: 'seconds' } },
        {
          kind: 'string',
          pattern: DURATION_PATTERN.source,
          patternHint: 'a number with a unit: 500ms, 5s, 2m or 1h',
          meta: {},
        },
      ],
      meta: { examples: ['5s', '500ms', '2m'], ...meta },
    });
  },
  /** A one-key object whose key chooses the branch: `{ play: {...} }`; bare names allowed for `bare`. */
  keyed<B extends Record<string, Schema<unknown>>>(
    noun: string,
    branches: B,
    bare: readonly (keyof B & string)[],
    meta: Meta = {},
  ): Schema<{ [K in keyof B]: { [P in K]: Infer<B[K]> } }[keyof B] | (typeof bare)[number]> {
    const nodes: Record<string, SchemaNode> = {};
    for (const [k, v] of Object.entries(branches)) nodes[k] = v.node;
    return wrap({ kind: 'keyed', noun, branches: nodes, bare, meta });
  },
  /** Names a schema so the JSON Schema defines it once under `$defs` (and allows recursion). */
  named<T>(name: string, schema: () => Schema<T>): Schema<T> {
    let cached: SchemaNode | undefined;
    return wrap({
      kind: 'named',
      name,
      node: () => {
        cached ??= schema().node;
        return cached;
      },
    });
  },
};

/** Follows `named` indirections. */
export function resolveNode(node: SchemaNode): Exclude<SchemaNode, { kind: 'named' }> {
  let current = node;
  while (current.kind === 'named') current = current.node();
  return current;
}
