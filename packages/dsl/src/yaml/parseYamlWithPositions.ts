import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument, Scalar } from 'yaml';
import { type Diagnostic, diagnostic, type Path } from '../validate/Diagnostic.ts';

/** Where a key and its value sit in the source (character offsets). */
interface NodePlace {
  readonly keyOffset?: number;
  readonly valueOffset: number;
  /** Where the text of a scalar value starts (after an opening quote), for offsets inside expressions. */
  readonly textOffset?: number;
}

/** The plain value of a YAML text, and a way to turn document paths back into line:column. */
export interface PositionedYaml {
  readonly value: unknown;
  readonly diagnostics: Diagnostic[];
  /** Adds file, line and column to a diagnostic from its path (and offset inside an expression). */
  locate(d: Diagnostic): Diagnostic;
}

function pathKey(path: Path): string {
  return JSON.stringify(path);
}

/**
 * Parses YAML keeping the position of every key and value (through the `yaml` package's node
 * ranges and LineCounter), so that later problems found on plain values can be shown at
 * file:line:col. Syntax errors come back positioned too, never thrown.
 *
 * @example
 * const parsed = parseYamlWithPositions(text, 'flows/ivr.yaml');
 * parsed.diagnostics // YAML syntax problems, each with line and column
 */
export function parseYamlWithPositions(text: string, file: string): PositionedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const places = new Map<string, NodePlace>();
  /** Keys that are lists or mappings (`[a]: x`): no flow has them, and JS objects cannot hold them. */
  const collectionKeys: number[] = [];
  const at = (offset: number) => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };

  const record = (node: Node | null | undefined, path: Path, keyOffset?: number) => {
    if (!node) return;
    const valueOffset = node.range?.[0] ?? keyOffset ?? 0;
    let textOffset: number | undefined;
    if (isScalar(node)) {
      if (node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE)
        textOffset = valueOffset + 1;
      else if (node.type === Scalar.PLAIN) textOffset = valueOffset;
    }
    places.set(pathKey(path), {
      ...(keyOffset !== undefined ? { keyOffset } : {}),
      valueOffset,
      ...(textOffset !== undefined ? { textOffset } : {}),
    });
    if (isMap(node)) {
      for (const item of node.items) {
        if (!isPair(item)) continue;
        const keyNode = item.key as Node | null;
        const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
        const kOffset = keyNode?.range?.[0] ?? valueOffset;
        if (keyNode && !isScalar(keyNode)) collectionKeys.push(kOffset);
        const child = item.value as Node | null;
        if (child) record(child, [...path, key], kOffset);
        else places.set(pathKey([...path, key]), { keyOffset: kOffset, valueOffset: kOffset });
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        record(item as Node, [...path, i]);
      });
    }
  };
  record(doc.contents as Node | null, []);

  const diagnostics: Diagnostic[] = [];
  for (const error of [...doc.errors, ...doc.warnings]) {
    const pos = at(error.pos[0]);
    const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    diagnostics.push({
      ...diagnostic(
        'yaml-syntax',
        [],
        `${message}. Fix the YAML syntax here (indentation, quotes, ":" after keys).`,
        {
          // `error` is a YAMLError or YAMLWarning; `doc.errors` is typed as errors only.
          severity: doc.errors.includes(error as never) ? 'error' : 'warning',
        },
      ),
      file,
      ...pos,
    });
  }

  for (const offset of collectionKeys)
    diagnostics.push({
      ...diagnostic(
        'yaml-syntax',
        [],
        'A key is a list or a mapping here; keys are names. Quote it if it is meant as text ("[a]": ...).',
      ),
      file,
      ...at(offset),
    });

  const locate = (d: Diagnostic): Diagnostic => {
    if (d.line !== undefined) return { ...d, file: d.file ?? file };
    // The nearest known ancestor carries the position when the exact path has none (missing fields).
    for (let n = d.path.length; n >= 0; n--) {
      const place = places.get(pathKey(d.path.slice(0, n)));
      if (!place) continue;
      const exact = n === d.path.length;
      let offset = exact && d.target === 'key' ? (place.keyOffset ?? place.valueOffset) : place.valueOffset;
      if (exact && d.offset !== undefined && place.textOffset !== undefined)
        offset = place.textOffset + d.offset;
      return { ...d, file, ...at(offset) };
    }
    return { ...d, file, line: 1, column: 1 };
  };

  let value: unknown;
  try {
    value = doc.errors.length > 0 || collectionKeys.length > 0 ? undefined : doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    diagnostics.push({
      ...diagnostic('yaml-syntax', [], `${(e as Error).message}.`),
      file,
      line: 1,
      column: 1,
    });
  }
  return { value, diagnostics, locate };
}
