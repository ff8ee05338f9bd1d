import type { DialplanIssue, SourcePosition } from './Dialplan.ts';

/**
 * The generic layer of the real server's configuration files, which `extensions.conf` is one
 * of: `;` line comments, `;-- ... --;` block comments (nestable, may span lines), `\;` for a
 * literal semicolon, `[section]` headers with template options (`[name](!)` declares a
 * template, `[name](tpl1,tpl2)` starts with the lines of those sections, `[name](+)` appends to
 * an earlier section), `name = value` / `name => value` lines and `#include` directives.
 * There are no line continuations in this syntax: every entry is one line.
 */

export interface ConfigEntry {
  readonly name: string;
  readonly value: string;
  readonly position: SourcePosition;
  /** Column (1-based) where the value starts, for positioned messages about the value. */
  readonly valueColumn: number;
}

export interface ConfigSection {
  readonly name: string;
  readonly position: SourcePosition;
  /** Declared with `(!)`: a template only, not a section of its own. */
  readonly isTemplate: boolean;
  readonly entries: ConfigEntry[];
}

export interface ConfigFile {
  readonly sections: readonly ConfigSection[];
  readonly issues: readonly DialplanIssue[];
}

/** Reads an `#include`d file; `undefined` when it does not exist. */
export type IncludeReader = (path: string, fromFile: string) => { text: string; file: string } | undefined;

export interface ReadConfigOptions {
  /** Without a reader, `#include` is reported as an error (text given directly has no directory). */
  readonly include?: IncludeReader;
}

const MAX_INCLUDE_DEPTH = 10;

/**
 * Splits config text into sections of entries. Never throws: problems come back as issues.
 *
 * @example readConfigFile('[default]\nexten => s,1,Answer()', 'extensions.conf').sections[0]?.entries[0]?.name // 'exten'
 */
export function readConfigFile(text: string, file: string, options: ReadConfigOptions = {}): ConfigFile {
  const state: ReaderState = {
    sections: [],
    issues: [],
    current: undefined,
    skipping: false,
    includeStack: [file],
  };
  readInto(state, text, file, options);
  return { sections: state.sections, issues: state.issues };
}

interface ReaderState {
  sections: ConfigSection[];
  issues: DialplanIssue[];
  current: ConfigSection | undefined;
  /** The last header was broken (already reported): its lines are skipped without more errors. */
  skipping: boolean;
  includeStack: string[];
}

function readInto(state: ReaderState, text: string, file: string, options: ReadConfigOptions): void {
  const lines = text.split(/\r\n|\n|\r/);
  let commentDepth = 0;
  let commentStart = 0;
  const issue = (severity: DialplanIssue['severity'], line: number, message: string, column?: number) =>
    state.issues.push({
      severity,
      message,
      position: column === undefined ? { file, line } : { file, line, column },
    });

  for (let index = 0; index < lines.length; index++) {
    const lineNo = index + 1;
    const raw = lines[index]!;
    // Remove comments, remembering for each kept character its column in the raw line.
    let kept = '';
    const columns: number[] = [];
    for (let i = 0; i < raw.length; i++) {
      const c = raw[i]!;
      if (c === ';' && raw[i + 1] === '-' && raw[i + 2] === '-' && raw[i + 3] !== '-') {
        if (commentDepth === 0) commentStart = lineNo;
        commentDepth++;
        i += 2;
      } else if (commentDepth > 0) {
        if (c === ';' && i >= 2 && raw[i - 1] === '-' && raw[i - 2] === '-') commentDepth--;
      } else if (c === '\\' && raw[i + 1] === ';') {
        kept += ';';
        columns.push(i + 1);
        i++;
      } else if (c === ';') {
        break;
      } else {
        kept += c;
        columns.push(i + 1);
      }
    }
    const start = kept.search(/\S/);
    if (start < 0) continue;
    const content = kept.trim();
    const column = columns[start] ?? 1;
    const columnOf = (offsetInContent: number) => columns[start + offsetInContent] ?? column;

    if (content.startsWith('[')) {
      readSectionHeader(state, content, { file, line: lineNo, column }, columnOf, issue);
    } else if (content.startsWith('#')) {
      readDirective(state, content, file, lineNo, column, options, issue);
    } else {
      const eq = content.indexOf('=');
      if (eq <= 0) {
        issue(
          'error',
          lineNo,
          eq === 0
            ? 'expected a name before \'=\', e.g. "exten => 100,1,Answer()"'
            : `expected "name => value" (e.g. "exten => 100,1,Answer()" or "include => other"), found "${content}"`,
          column,
        );
        continue;
      }
      const name = content.slice(0, eq).trim();
      let valueStart = eq + 1;
      if (content[valueStart] === '>') valueStart++;
      while (content[valueStart] === ' ' || content[valueStart] === '\t') valueStart++;
      const value = content.slice(valueStart).trim();
      if (!state.current) {
        if (state.skipping) continue;
        issue('error', lineNo, `"${name}" is outside any section: add a [context] header above it`, column);
        continue;
      }
      state.current.entries.push({
        name,
        value,
        position: { file, line: lineNo, column },
        valueColumn: columnOf(valueStart),
      });
    }
  }
  if (commentDepth > 0) {
    issue('warning', commentStart, `block comment ';--' opened here is never closed with '--;'`);
  }
}

function readSectionHeader(
  state: ReaderState,
  content: string,
  position: SourcePosition,
  columnOf: (offset: number) => number,
  issue: (severity: DialplanIssue['severity'], line: number, message: string, column?: number) => void,
): void {
  const close = content.indexOf(']');
  if (close < 0) {
    issue('error', position.line, `expected ']' to close the section name "${content}"`, position.column);
    state.current = undefined;
    state.skipping = true;
    return;
  }
  const name = content.slice(1, close).trim();
  if (!name) {
    issue('error', position.line, 'expected a section name between [ and ], e.g. [default]', position.column);
    state.current = undefined;
    state.skipping = true;
    return;
  }
  const rest = content.slice(close + 1).trim();
  let options: string[] = [];
  if (rest.startsWith('(') && rest.endsWith(')')) {
    options = rest
      .slice(1, -1)
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean);
  } else if (rest) {
    issue(
      'warning',
      position.line,
      `text after [${name}] is ignored: "${rest}" (template options go in parentheses, e.g. [${name}](!))`,
      columnOf(close + 1),
    );
  }
  if (options.includes('+')) {
    const existing = findLastSection(state.sections, name);
    if (!existing) {
      issue(
        'error',
        position.line,
        `[${name}](+) adds to a section, but no [${name}] comes before it`,
        position.column,
      );
      state.current = undefined;
      return;
    }
    state.current = existing;
    return;
  }
  const section: ConfigSection = { name, position, isTemplate: options.includes('!'), entries: [] };
  for (const template of options.filter((o) => o !== '!')) {
    const source = findLastSection(state.sections, template);
    if (!source) {
      issue(
        'error',
        position.line,
        `[${name}] inherits from "${template}", but no section of that name comes before it`,
        position.column,
      );
      continue;
    }
    section.entries.push(...source.entries);
  }
  state.sections.push(section);
  state.current = section;
  state.skipping = false;
}

function findLastSection(sections: readonly ConfigSection[], name: string): ConfigSection | undefined {
  for (let i = sections.length - 1; i >= 0; i--) if (sections[i]!.name === name) return sections[i];
  return undefined;
}

function readDirective(
  state: ReaderState,
  content: string,
  file: string,
  line: number,
  column: number,
  options: ReadConfigOptions,
  issue: (severity: DialplanIssue['severity'], line: number, message: string, column?: number) => void,
): void {
  const match = /^#\s*(\w+)\s*(.*)$/.exec(content);
  const directive = match?.[1]?.toLowerCase();
  const argument = (match?.[2] ?? '').trim().replace(/^["<](.*)[">]$/, '$1');
  if (directive !== 'include' && directive !== 'tryinclude') {
    issue(
      'error',
      line,
      `unsupported directive "${content}": the simulator reads #include and #tryinclude (not #exec)`,
      column,
    );
    return;
  }
  if (!argument) {
    issue('error', line, `expected a file name after #${directive}`, column);
    return;
  }
  if (!options.include) {
    issue(
      'error',
      line,
      `#${directive} needs a file system: load the dialplan with loadDialplanFile()`,
      column,
    );
    return;
  }
  if (state.includeStack.length > MAX_INCLUDE_DEPTH) {
    issue(
      'error',
      line,
      `#${directive} "${argument}" nests more than ${MAX_INCLUDE_DEPTH} deep (an include loop?)`,
    );
    return;
  }
  const included = options.include(argument, file);
  if (!included) {
    if (directive === 'include') issue('error', line, `#include "${argument}": file not found`, column);
    return;
  }
  if (state.includeStack.includes(included.file)) {
    issue('error', line, `#${directive} "${argument}" includes itself (include loop)`, column);
    return;
  }
  state.includeStack.push(included.file);
  readInto(state, included.text, included.file, options);
  state.includeStack.pop();
}
