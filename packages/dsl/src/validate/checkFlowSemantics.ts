import { eventTypeNames } from '@ringflow/client/interface';
import { convertInputValue } from '../inputs/convertFlowInputs.ts';
import { flowEvents, USER_EVENT_PREFIX } from '../model/flowEvents.ts';
import type { FlowDocument, StateDocument, SubflowDocument } from '../model/flowSchema.ts';
import { type FlowTransitions, transitionList } from '../model/transition.ts';
import { describeValue, type FoundExpression } from '../schema/checkValue.ts';
import { stepDefinition } from '../steps/index.ts';
import type { SoundFields } from '../steps/StepDefinition.ts';
import { type Diagnostic, diagnostic, type Path } from './Diagnostic.ts';
import { stepEntries } from './stepEntries.ts';
import { checkExpressions } from './checkExpressions.ts';
import { didYouMean } from './suggest.ts';

type FlowBody = SubflowDocument;

/** One edge of the state graph, with where it is written. */
interface Edge {
  readonly from: string | undefined; // undefined: a flow-level handler (reachable from anywhere)
  readonly to: string;
  readonly path: Path;
  readonly eventless: boolean;
  readonly guarded: boolean;
}

/** The value at a path inside a step's parameters (undefined when a part is missing). */
function valueAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const part of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[part];
  }
  return current;
}

/**
 * The checks that need the whole flow: targets, reachability, the path to an end, eventless loops,
 * events, outcomes, subflows, prompts and every expression. Reports everything it finds.
 */
export function checkFlowSemantics(doc: FlowDocument, expressions: readonly FoundExpression[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const subflows = doc.subflows ?? {};
  const queues = Object.keys(doc.queues ?? {});
  checkBody(doc, [], subflows, queues, out);
  for (const [name, sub] of Object.entries(subflows))
    checkBody(sub, ['subflows', name], subflows, queues, out);
  checkQueueNames(queues, out);
  checkExpressions(doc, expressions, out);
  return out;
}

function checkBody(
  body: FlowBody,
  base: Path,
  subflows: Record<string, SubflowDocument>,
  queues: readonly string[],
  out: Diagnostic[],
): void {
  const states = body.states ?? {};
  const names = Object.keys(states);
  const edges: Edge[] = [];
  const languages = Object.keys(body.prompts ?? {});
  const defaultLanguage = body.language ?? 'en';
  const promptNames = new Set(languages.flatMap((l) => Object.keys(body.prompts?.[l] ?? {})));

  const target = (
    to: string | undefined,
    path: Path,
    from: string | undefined,
    eventless: boolean,
    guarded: boolean,
  ) => {
    if (to === undefined) return;
    if (!Object.hasOwn(states, to)) {
      out.push(
        diagnostic(
          'unknown-target',
          path,
          `No state named "${to}".${didYouMean(to, names) || ` States are: ${names.join(', ')}.`}`,
        ),
      );
      return;
    }
    edges.push({ from, to, path, eventless, guarded });
  };
  const transitions = (
    value: FlowTransitions | undefined,
    path: Path,
    from: string | undefined,
    eventless: boolean,
  ) => {
    if (value === undefined) return;
    const list = transitionList(value);
    list.forEach((t, i) => {
      const p = Array.isArray(value) ? [...path, i] : path;
      target(
        t.goto,
        typeof value === 'string' || (Array.isArray(value) && typeof value[i] === 'string')
          ? p
          : [...p, 'goto'],
        from,
        eventless,
        t.if !== undefined,
      );
    });
  };
  const checkEvents = (
    on: Record<string, FlowTransitions> | undefined,
    path: Path,
    from: string | undefined,
  ) => {
    for (const [event, value] of Object.entries(on ?? {})) {
      const known =
        Object.hasOwn(flowEvents, event) ||
        (event.startsWith(USER_EVENT_PREFIX) && event.length > USER_EVENT_PREFIX.length) ||
        eventTypeNames.includes(event);
      if (!known)
        out.push(
          diagnostic(
            'unknown-event',
            [...path, event],
            `Unknown event "${event}".${didYouMean(event, [...Object.keys(flowEvents), ...eventTypeNames]) || ` Use one of ${Object.keys(flowEvents).join(', ')}, userEvent:<Name>, or a server event type.`}`,
            { target: 'key' },
          ),
        );
      transitions(value, [...path, event], from, false);
    }
  };
  const usePrompt = (name: string, path: Path) => {
    if (!promptNames.has(name)) {
      out.push(
        diagnostic(
          'unknown-prompt',
          path,
          `No prompt named "${name}" in the catalogue.${didYouMean(name, promptNames) || (promptNames.size > 0 ? ` Prompts are: ${[...promptNames].join(', ')}.` : ' Add it under prompts.<language>.')}`,
        ),
      );
      return;
    }
    const missing = languages.filter((l) => !Object.hasOwn(body.prompts?.[l] ?? {}, name));
    if (!Object.hasOwn(body.prompts?.[defaultLanguage] ?? {}, name))
      out.push(
        diagnostic(
          'prompt-missing-in-language',
          path,
          `Prompt "${name}" has no media in the default language "${defaultLanguage}"; callers in other languages hear nothing. Add prompts.${defaultLanguage}.${name}.`,
        ),
      );
    else if (missing.length > 0)
      out.push(
        diagnostic(
          'prompt-missing-in-language',
          path,
          `Prompt "${name}" is missing in ${missing.join(', ')}; those callers hear the "${defaultLanguage}" version.`,
          { severity: 'warning' },
        ),
      );
  };
  const useLanguage = (language: unknown, path: Path) => {
    if (typeof language === 'string' && languages.length > 0 && !languages.includes(language))
      out.push(
        diagnostic(
          'unknown-language',
          path,
          `The prompt catalogue has no language "${language}".${didYouMean(language, languages) || ` Languages are: ${languages.join(', ')}.`}`,
        ),
      );
  };

  /** Prompts, media and language where a step says it names them. */
  const checkSound = (sound: SoundFields, params: Record<string, unknown>, stepPath: Path) => {
    const fields = valueAt(params, sound.at);
    if (typeof fields !== 'object' || fields === null) return;
    const at: Path = [...stepPath, ...sound.at];
    const field = sound.promptField ?? 'prompt';
    const prompt = (fields as Record<string, unknown>)[field];
    const media = (fields as Record<string, unknown>).media;
    if (sound.required !== undefined && prompt === undefined && media === undefined)
      out.push(
        diagnostic(
          'missing-field',
          at,
          `${sound.required} needs "prompt" (a catalogue name) or "media" (URIs).`,
          { target: 'key' },
        ),
      );
    if (Array.isArray(prompt))
      prompt.forEach((p, j) => {
        if (typeof p === 'string') usePrompt(p, [...at, field, j]);
      });
    else if (typeof prompt === 'string') usePrompt(prompt, [...at, field]);
    const language = (fields as Record<string, unknown>).language;
    if (language !== undefined) useLanguage(language, [...at, 'language']);
  };

  if (!Object.hasOwn(states, body.start))
    out.push(
      diagnostic(
        'unknown-start',
        [...base, 'start'],
        `The start state "${body.start}" does not exist.${didYouMean(body.start, names) || ` States are: ${names.join(', ')}.`}`,
      ),
    );
  if (body.language !== undefined) useLanguage(body.language, [...base, 'language']);
  checkEvents(body.on, [...base, 'on'], undefined);
  checkInputs(body, base, out);

  const terminal = new Set<string>();
  const instant = new Set<string>();
  /** States that may wait forever, reported when reachable. */
  const waiting: Diagnostic[] = [];
  for (const [name, state] of Object.entries(states) as [string, StateDocument][]) {
    const sp: Path = [...base, 'states', name];
    if (state.next !== undefined && state.choose !== undefined)
      out.push(
        diagnostic(
          'invalid-value',
          [...sp, 'choose'],
          'A state has either next or choose, not both: put the unconditional target last in choose.',
        ),
      );
    if (state.final && (state.next !== undefined || state.choose !== undefined))
      out.push(
        diagnostic(
          'invalid-value',
          [...sp, 'final'],
          'A final state ends the flow; remove next/choose or final.',
        ),
      );
    if (state.output !== undefined && !state.final)
      out.push(
        diagnostic('invalid-value', [...sp, 'output'], 'Only a final state has an output; add final: true.'),
      );
    if (state.final) terminal.add(name);
    let allInstant = true;
    (state.steps ?? []).forEach((step, i) => {
      const entry = stepEntries(step);
      if (!entry) return;
      const [stepName, params] = entry;
      const definition = stepDefinition(stepName);
      if (!definition) return;
      const stepPath: Path = typeof step === 'string' ? [...sp, 'steps', i] : [...sp, 'steps', i, stepName];
      if (definition.endsCall && params.if === undefined) terminal.add(name);
      if (!definition.instant) allInstant = false;
      const outcomes = definition.outcomes.map((o) => o.name);
      for (const [outcome, value] of Object.entries((params.on ?? {}) as Record<string, FlowTransitions>)) {
        if (!outcomes.includes(outcome))
          out.push(
            diagnostic(
              'unknown-outcome',
              [...stepPath, 'on', outcome],
              `The ${stepName} step has no outcome "${outcome}".${didYouMean(outcome, outcomes) || ` Its outcomes are: ${outcomes.join(', ')}.`}`,
              {
                target: 'key',
              },
            ),
          );
        transitions(value, [...stepPath, 'on', outcome], name, false);
      }
      for (const route of definition.routes?.(params, stepPath) ?? [])
        transitions(route.transitions, route.path, name, false);
      for (const sound of definition.sounds ?? []) checkSound(sound, params, stepPath);
      out.push(...(definition.check?.(params, stepPath, { subflows, queues }) ?? []));
    });
    if (!state.steps || state.steps.length === 0) allInstant = true;
    if (allInstant && (state.next !== undefined || state.choose !== undefined)) instant.add(name);
    transitions(state.next as FlowTransitions | undefined, [...sp, 'next'], name, true);
    state.choose?.forEach((c, i) => {
      target(c.goto, [...sp, 'choose', i, 'goto'], name, true, c.when !== undefined);
    });
    checkEvents(state.on, [...sp, 'on'], name);
    for (const [delay, value] of Object.entries(state.after ?? {}))
      transitions(value, [...sp, 'after', delay], name, false);
    const waits =
      state.next === undefined &&
      state.choose === undefined &&
      !terminal.has(name) &&
      stepsCanFinish(state.steps ?? [], sp);
    if (waits && Object.keys(state.after ?? {}).length === 0) {
      const events = Object.keys(state.on ?? {});
      waiting.push(
        diagnostic(
          'wait-without-timeout',
          events.length > 0 ? [...sp, 'on'] : sp,
          `State "${name}" waits ${events.length > 0 ? `for ${events.join(', ')}` : 'for an event'} with no timer: if none comes, the call stays here until the caller hangs up. Add a limit, e.g. after: { 5m: goodbye }.`,
          { severity: 'warning', target: 'key' },
        ),
      );
    }
  }

  // Reachability from start; flow-level handlers can fire from any reachable state.
  const reachable = new Set<string>();
  const queue = Object.hasOwn(states, body.start) ? [body.start] : [];
  const global = edges.filter((e) => e.from === undefined).map((e) => e.to);
  if (queue.length > 0) queue.push(...global);
  while (queue.length > 0) {
    const current = queue.pop()!;
    if (reachable.has(current)) continue;
    reachable.add(current);
    for (const e of edges) if (e.from === current && !reachable.has(e.to)) queue.push(e.to);
  }
  for (const name of names)
    if (!reachable.has(name) && Object.hasOwn(states, body.start))
      out.push(
        diagnostic(
          'unreachable-state',
          [...base, 'states', name],
          `State "${name}" can never be entered: no transition leads to it from "${body.start}". Remove it or add a transition to it.`,
          {
            severity: 'warning',
            target: 'key',
          },
        ),
      );

  for (const d of waiting) if (reachable.has(String(d.path[base.length + 1]))) out.push(d);

  // A path to an end (hangup, continue or final) from every reachable state.
  const canEnd = new Set(terminal);
  for (let changed = true; changed; ) {
    changed = false;
    for (const e of edges)
      if (e.from !== undefined && canEnd.has(e.to) && !canEnd.has(e.from)) {
        canEnd.add(e.from);
        changed = true;
      }
  }
  for (const name of names)
    if (reachable.has(name) && !canEnd.has(name))
      out.push(
        diagnostic(
          'no-hangup-path',
          [...base, 'states', name],
          `From state "${name}" no path leads to a hangup, continue or final state: the call only ends when the caller hangs up. Add a way out (e.g. a timeout to a goodbye state).`,
          { severity: 'warning', target: 'key' },
        ),
      );

  // Eventless loops: instant states chained by unconditional next/choose edges.
  const unguarded = edges.filter(
    (e) => e.eventless && !e.guarded && e.from !== undefined && instant.has(e.from),
  );
  const reported = new Set<string>();
  for (const start of instant) {
    const seen: string[] = [];
    let current: string | undefined = start;
    while (current !== undefined && !seen.includes(current)) {
      seen.push(current);
      const from: string = current;
      current = unguarded.find((e) => e.from === from)?.to;
    }
    if (current === undefined) continue;
    const cycle = seen.slice(seen.indexOf(current));
    const key = [...cycle].sort().join(',');
    if (reported.has(key)) continue;
    reported.add(key);
    const edge = unguarded.find((e) => e.from === cycle[cycle.length - 1]);
    out.push(
      diagnostic(
        'eventless-loop',
        edge?.path ?? [...base, 'states', current],
        `States ${[...cycle, cycle[0]].map((c) => `"${c}"`).join(' -> ')} pass control to each other without waiting for anything: the flow would loop forever. Add a condition, a step that waits, or a timer.`,
      ),
    );
  }
}

/**
 * Queue names name their agents' device states (`Stasis:queue-<queue>-<endpoint>`): with `sales`
 * and `sales-eu`, the first would read the second's agents as its own.
 */
function checkQueueNames(queues: readonly string[], out: Diagnostic[]): void {
  for (const name of queues) {
    const clash = queues.find((other) => other !== name && name.startsWith(`${other}-`));
    if (clash)
      out.push(
        diagnostic(
          'invalid-value',
          ['queues', name],
          `Queue "${name}" starts with the name of queue "${clash}" and a "-": the device states of its agents (Stasis:queue-${name}-...) would read as "${clash}"'s. Rename one, e.g. ${name.replace(/-/g, '_')}.`,
          { target: 'key' },
        ),
      );
  }
}

function checkInputs(body: FlowBody, base: Path, out: Diagnostic[]): void {
  for (const [name, input] of Object.entries(body.inputs ?? {}))
    if (input.default !== undefined && convertInputValue(input.type, input.default) === undefined)
      out.push(
        diagnostic(
          'wrong-type',
          [...base, 'inputs', name, 'default'],
          `The default of input "${name}" must be a ${input.type}, found ${describeValue(input.default)}.`,
        ),
      );
}

/** Whether a transition always leaves for a state (its first entry has a goto and no condition). */
function alwaysLeaves(value: FlowTransitions | undefined): boolean {
  if (value === undefined || value === null) return false;
  const first = transitionList(value)[0];
  return first !== undefined && first.goto !== undefined && first.if === undefined;
}

/**
 * Whether the steps of a state can all run to the end (and the state then waits for its events):
 * false when the last step leaves the state whatever happens, every success outcome it can have
 * being routed to a state (failures go to the error handler).
 */
function stepsCanFinish(steps: readonly unknown[], statePath: Path): boolean {
  const entry = stepEntries(steps[steps.length - 1]);
  if (!entry) return true;
  const [stepName, params] = entry;
  const definition = stepDefinition(stepName);
  if (!definition || params.if !== undefined) return true;
  const on = (params.on ?? {}) as Record<string, FlowTransitions>;
  const possible = definition.possibleOutcomes?.(params);
  const routes = definition.routes?.(params, [...statePath, 'steps', steps.length - 1, stepName]) ?? [];
  return definition.outcomes.some((outcome) => {
    if (outcome.kind !== 'success' || (possible && !possible.includes(outcome.name))) return false;
    if (alwaysLeaves(on[outcome.name])) return false;
    const routed = routes.filter((r) => r.outcome === outcome.name);
    return routed.length === 0 || !routed.every((r) => alwaysLeaves(r.transitions));
  });
}
