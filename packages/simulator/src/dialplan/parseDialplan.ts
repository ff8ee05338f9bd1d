import { findApplication } from './applications/index.ts';
import type {
  Dialplan,
  DialplanContext,
  DialplanExtension,
  DialplanHint,
  DialplanInclude,
  DialplanIssue,
  DialplanPriority,
  SourcePosition,
} from './Dialplan.ts';
import { DialplanSyntaxError } from './DialplanSyntaxError.ts';
import { compareExtensions, isPattern, patternProblem, unreachablePatternPart } from './extensionPattern.ts';
import { type ConfigEntry, type IncludeReader, readConfigFile } from './readConfigFile.ts';
import { substituteVariables } from './substituteVariables.ts';

export interface ParseDialplanOptions {
  /** Reads `#include`d files (given by `loadDialplanFile`). */
  readonly include?: IncludeReader;
}

/**
 * Parses the real server's `extensions.conf` syntax into a `Dialplan`.
 *
 * Understood: `[general]` (options), `[globals]` (global variables; values may use earlier
 * globals), `[context]` sections (also templates: `[a](!)`, `[b](a)`, `[a](+)`), and in
 * contexts `exten => ext,priority(label),App(args)`, `same => priority(label),App(args)`,
 * `include => context`, `ignorepat => ...`. A priority is a number, `n` (previous + 1),
 * `s`/`same` (previous), a label defined earlier in the extension, any of these `+k`, or
 * `hint` (`exten => 100,hint,PJSIP/alice`, kept as the extension's hint). Comments: `;` and
 * `;-- ... --;`.
 *
 * Lines the simulator cannot read (malformed header, no `=>`, bad priority, missing `)` after
 * a label, duplicate priority, ...) are errors: all of them are thrown together as one
 * `DialplanSyntaxError`, each with file and line, so nothing is silently dropped. Things a real
 * server would load but that will not work as written (an application the simulator does not
 * implement, `switch`, an include of an unknown context, ...) are warnings in `warnings`.
 *
 * @example
 * const dp = parseDialplan('[default]\nexten => 100,1,Answer()\n same => n(menu),Playback(beep)', 'extensions.conf');
 * dp.contexts.get('default')?.extensions[0]?.labels.get('menu') // 2
 */
export function parseDialplan(text: string, file: string, options: ParseDialplanOptions = {}): Dialplan {
  const config = readConfigFile(text, file, options.include ? { include: options.include } : {});
  const issues: DialplanIssue[] = [...config.issues];
  const error = (position: SourcePosition, message: string) =>
    issues.push({ severity: 'error', message, position });
  const warning = (position: SourcePosition, message: string) =>
    issues.push({ severity: 'warning', message, position });

  const general = new Map<string, string>();
  const globals = new Map<string, string>();
  const contexts = new Map<string, ContextBuilder>();
  const globalScope = {
    variable: (name: string) => globals.get(name),
    func: (name: string, args: string) =>
      name.toUpperCase() === 'GLOBAL' ? globals.get(args.trim()) : undefined,
  };

  for (const section of config.sections) {
    if (section.isTemplate) continue;
    const kind = section.name.toLowerCase();
    if (kind === 'general') {
      for (const entry of section.entries) general.set(entry.name.toLowerCase(), entry.value);
      const fallthrough = general.get('autofallthrough');
      if (fallthrough !== undefined && /^(no|false|off|0)$/i.test(fallthrough)) {
        warning(section.position, 'autofallthrough=no is not simulated: running off an extension hangs up');
      }
      continue;
    }
    if (kind === 'globals') {
      for (const entry of section.entries)
        globals.set(entry.name, substituteVariables(entry.value, globalScope));
      continue;
    }
    let context = contexts.get(section.name);
    if (!context) {
      context = new ContextBuilder(section.name, section.position);
      contexts.set(section.name, context);
    }
    // As on the real server, `n` and `same =>` continue from the previous line of THIS section only.
    const state: LineState = { lastExten: undefined, lastPriority: undefined };
    for (const entry of section.entries) {
      readContextEntry(context, entry, state, {
        error,
        warning,
        substitute: (t) => substituteVariables(t, globalScope),
      });
    }
  }

  for (const context of contexts.values()) {
    for (const include of context.includes) {
      if (!contexts.has(include.context)) {
        warning(
          include.position,
          `context "${context.name}" includes "${include.context}", which does not exist (the include finds nothing)`,
        );
      }
    }
  }

  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) throw new DialplanSyntaxError(sortIssues(errors));
  return {
    contexts: new Map([...contexts].map(([name, builder]) => [name, builder.build()])),
    globals,
    general,
    warnings: sortIssues(issues.filter((i) => i.severity === 'warning')),
  };
}

function sortIssues(issues: DialplanIssue[]): DialplanIssue[] {
  // Stable by file order of appearance, then line.
  return issues
    .map((issue, order) => ({ issue, order }))
    .sort((a, b) =>
      a.issue.position.file === b.issue.position.file
        ? a.issue.position.line - b.issue.position.line
        : a.order - b.order,
    )
    .map((x) => x.issue);
}

interface LineState {
  lastExten: string | undefined;
  /** Priority of the previous line; `hint` when it was a hint line (then `n` has no base). */
  lastPriority: number | 'hint' | undefined;
}

interface Reporter {
  error(position: SourcePosition, message: string): void;
  warning(position: SourcePosition, message: string): void;
  substitute(text: string): string;
}

function readContextEntry(
  context: ContextBuilder,
  entry: ConfigEntry,
  state: LineState,
  report: Reporter,
): void {
  const directive = entry.name.toLowerCase();
  const at = (column: number): SourcePosition => ({ ...entry.position, column });
  if (directive.startsWith('same') || directive === 'exten') {
    readExtensionLine(context, entry, directive !== 'exten', state, report);
  } else if (directive === 'include') {
    const [name = '', ...timing] = entry.value.split(',');
    const target = report.substitute(name.trim());
    if (!target) {
      report.error(at(entry.valueColumn), 'expected a context name after "include =>"');
      return;
    }
    if (timing.length > 0) {
      report.warning(
        at(entry.valueColumn),
        `time conditions on "include => ${entry.value}" are not simulated: "${target}" is always included`,
      );
    }
    context.includes.push({ context: target, position: entry.position });
  } else if (directive === 'ignorepat') {
    // Only affects dial tone on analog lines; nothing to simulate.
  } else if (directive === 'switch' || directive === 'lswitch' || directive === 'eswitch') {
    report.warning(
      entry.position,
      `"${entry.name} => ${entry.value}" is not simulated: the switch is never consulted`,
    );
  } else {
    report.warning(
      entry.position,
      `unknown directive "${entry.name}" in [${context.name}] is ignored (expected exten, same, include or ignorepat)`,
    );
  }
}

function readExtensionLine(
  context: ContextBuilder,
  entry: ConfigEntry,
  isSame: boolean,
  state: LineState,
  report: Reporter,
): void {
  const value = entry.value;
  const at = (offset: number): SourcePosition => ({ ...entry.position, column: entry.valueColumn + offset });
  let exten: string;
  let rest: string;
  let restOffset: number;
  if (isSame) {
    if (state.lastExten === undefined) {
      report.error(
        entry.position,
        `"same =>" needs an "exten =>" line before it in [${context.name}] to know which extension it continues`,
      );
      return;
    }
    exten = state.lastExten;
    rest = value;
    restOffset = 0;
  } else {
    const comma = extensionEnd(value);
    if (comma < 0) {
      report.error(
        at(0),
        `expected "exten => extension,priority,Application(args)", found "exten => ${value}"`,
      );
      return;
    }
    exten = report.substitute(value.slice(0, comma).trim());
    rest = value.slice(comma + 1);
    restOffset = comma + 1;
    const slash = exten.indexOf('/');
    if (slash >= 0) {
      report.warning(
        at(slash),
        `caller-id matching ("${exten}") is not simulated: the extension matches every caller`,
      );
      exten = exten.slice(0, slash);
    }
    if (!exten) {
      report.error(
        at(0),
        'expected an extension (a number, a name like s, or a pattern like _X.) before the first comma',
      );
      return;
    }
    const problem = patternProblem(exten);
    if (problem) {
      report.error(at(0), problem);
      return;
    }
    const unreachable = unreachablePatternPart(exten);
    if (unreachable) {
      report.warning(at(0), `"${unreachable}" after the wildcard in "${exten}" is never reached`);
    }
    if (exten === '_.' || exten === '_!') {
      report.warning(
        at(0),
        `the pattern "${exten}" also matches the special extensions h, i, t...: prefer "_X${exten[1]}"`,
      );
    }
    state.lastExten = exten;
  }

  const comma = rest.indexOf(',');
  const priorityText = (comma < 0 ? rest : rest.slice(0, comma)).trim();
  const priorityPosition = at(restOffset + Math.max(0, rest.search(/\S/)));
  if (comma < 0) {
    report.error(
      priorityPosition,
      `expected ",Application(args)" after the priority "${priorityText}", e.g. "exten => ${exten},1,Answer()"`,
    );
    return;
  }
  const appText = rest.slice(comma + 1);
  const appPosition = at(restOffset + comma + 1 + Math.max(0, appText.search(/\S/)));

  // priority(label)+offset: the label is taken out first, then "+k".
  let base = priorityText;
  let label: string | undefined;
  const open = base.indexOf('(');
  if (open >= 0) {
    const close = base.indexOf(')', open);
    if (close < 0) {
      report.error(
        priorityPosition,
        `label "${base.slice(open)}" has no closing ')': write ${base.slice(0, open)}(label)`,
      );
      return;
    }
    label = base.slice(open + 1, close).trim();
    base = (base.slice(0, open) + base.slice(close + 1)).trim();
  }
  let offset = 0;
  const plus = base.indexOf('+');
  if (plus >= 0) {
    offset = Number.parseInt(base.slice(plus + 1), 10) || 0;
    base = base.slice(0, plus).trim();
  }

  const extension = context.extension(exten, entry.position);
  if (base === 'hint') {
    if (extension.hint) {
      report.error(
        priorityPosition,
        `extension ${exten} already has a hint (line ${extension.hint.position.line})`,
      );
      return;
    }
    extension.hint = { device: appText.trim(), position: entry.position };
    state.lastPriority = 'hint';
    return;
  }

  let priority: number;
  if (base === 'n' || base === 'next' || base === 's' || base === 'same') {
    if (typeof state.lastPriority !== 'number') {
      report.error(
        priorityPosition,
        state.lastPriority === 'hint'
          ? `"${base}" right after a hint line has no priority to follow: number this line (e.g. 1)`
          : `"${base}" needs a previous priority in [${context.name}]: the first line of an extension uses 1`,
      );
      return;
    }
    priority = base.startsWith('n') ? state.lastPriority + 1 : state.lastPriority;
  } else if (/^\d+$/.test(base)) {
    priority = Number(base);
  } else {
    const labelled = extension.labels.get(base);
    if (labelled === undefined) {
      report.error(
        priorityPosition,
        `expected a priority (a number, n, s, hint, or a label defined earlier in extension ${exten}), found "${priorityText}"`,
      );
      return;
    }
    priority = labelled;
  }
  priority += offset;
  if (priority < 1) {
    report.error(priorityPosition, `priority ${priority} is not valid: priorities start at 1`);
    return;
  }

  const { app, data, unclosed } = splitApplication(appText);
  if (!app) {
    report.error(appPosition, 'expected an application after the priority, e.g. Answer() or Playback(beep)');
    return;
  }
  if (unclosed) {
    report.warning(
      appPosition,
      `no closing parenthesis in "${appText.trim()}": the arguments run to the end of the line`,
    );
  }
  const existing = extension.priorities.get(priority);
  if (existing) {
    report.error(
      priorityPosition,
      `priority ${priority} of extension ${exten} in [${context.name}] is already defined at line ${existing.position.line}`,
    );
    return;
  }
  if (!findApplication(app)) {
    report.warning(
      appPosition,
      `application "${app}" is not implemented by the simulator: a channel reaching it is hung up, as a real server does with a missing application`,
    );
  }
  if (label) {
    const previous = extension.labels.get(label);
    if (previous !== undefined) {
      report.warning(
        priorityPosition,
        `label "${label}" is already priority ${previous} of extension ${exten}; lookups find that one`,
      );
    } else {
      extension.labels.set(label, priority);
    }
  }
  extension.priorities.set(priority, {
    priority,
    ...(label ? { label } : {}),
    app,
    appData: data,
    position: entry.position,
  });
  state.lastPriority = priority;
}

/** Index of the comma ending the extension field (commas inside a [set] belong to the pattern). */
function extensionEnd(value: string): number {
  let bracket = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\') i++;
    else if (c === '[') bracket = true;
    else if (c === ']') bracket = false;
    else if (c === ',' && !bracket) return i;
  }
  return -1;
}

/** `App(args)` -> app and args (to the LAST ')'); `App` alone has no args. */
function splitApplication(text: string): { app: string; data: string; unclosed: boolean } {
  const open = text.indexOf('(');
  if (open < 0) return { app: text.trim(), data: '', unclosed: false };
  const close = text.lastIndexOf(')');
  if (close < open) return { app: text.slice(0, open).trim(), data: text.slice(open + 1), unclosed: true };
  return { app: text.slice(0, open).trim(), data: text.slice(open + 1, close), unclosed: false };
}

class ExtensionBuilder {
  readonly priorities = new Map<number, DialplanPriority>();
  readonly labels = new Map<string, number>();
  hint: DialplanHint | undefined;
  constructor(
    readonly name: string,
    readonly position: SourcePosition,
  ) {}

  build(): DialplanExtension {
    return {
      name: this.name,
      isPattern: isPattern(this.name),
      priorities: new Map([...this.priorities].sort((a, b) => a[0] - b[0])),
      labels: this.labels,
      ...(this.hint ? { hint: this.hint } : {}),
      position: this.position,
    };
  }
}

class ContextBuilder {
  private readonly extensions = new Map<string, ExtensionBuilder>();
  readonly includes: DialplanInclude[] = [];
  constructor(
    readonly name: string,
    readonly position: SourcePosition,
  ) {}

  /** The extension of that name; `555-1234` and `5551234` (and `_x.`/`_X.`) are the same one. */
  extension(name: string, position: SourcePosition): ExtensionBuilder {
    const key = isPattern(name) ? patternKey(name) : name.replaceAll('-', '');
    let extension = this.extensions.get(key);
    if (!extension) {
      extension = new ExtensionBuilder(name, position);
      this.extensions.set(key, extension);
    }
    return extension;
  }

  build(): DialplanContext {
    const extensions = [...this.extensions.values()]
      .filter((e) => e.priorities.size > 0 || e.hint)
      .map((e) => e.build())
      .sort((a, b) => compareExtensions(a.name, b.name));
    return { name: this.name, extensions, includes: this.includes, position: this.position };
  }
}

/** `_nxx-x.` -> `_NXXX.`: the real server treats these spellings as one extension. */
function patternKey(pattern: string): string {
  let key = '';
  let inSet = false;
  for (const c of pattern) {
    if (c === '[') inSet = true;
    else if (c === ']') inSet = false;
    if (c === '-' && !inSet) continue;
    key += !inSet && (c === 'n' || c === 'x' || c === 'z') ? c.toUpperCase() : c;
  }
  return key;
}
