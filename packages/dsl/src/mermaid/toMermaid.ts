import type { FlowDocument, StateDocument, SubflowDocument } from '../model/flowSchema.ts';
import { type FlowTransitions, transitionList } from '../model/transition.ts';
import { stepDefinition } from '../steps/index.ts';
import type { Flow } from '../validate/validateFlow.ts';

/** Mermaid ids allow letters, digits and _: other characters are replaced. */
function nodeId(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

/** Text safe inside a Mermaid label (no colons, quotes or semicolons, which end labels). */
function label(text: string): string {
  return text
    .replace(/[:;"#]/g, (c) => ({ ':': ' ', ';': ',', '"': "'", '#': 'hash ' })[c] ?? c)
    .replace(/\s+/g, ' ')
    .trim();
}

function condition(t: { if?: string | boolean }): string {
  return t.if === undefined ? '' : ` [${String(t.if)}]`;
}

/**
 * Exports a flow as a Mermaid state diagram: one node per state (its steps listed), one arrow per
 * transition, labelled with the outcome, event, timer or condition that takes it.
 *
 * @example
 * console.log(toMermaid(await loadFlowFile('flows/ivr.yaml')));
 */
export function toMermaid(flow: Flow | FlowDocument): string {
  const doc: FlowDocument = 'document' in flow ? flow.document : flow;
  const lines = ['stateDiagram-v2'];
  renderBody(doc, lines, '  ');
  for (const [name, sub] of Object.entries(doc.subflows ?? {})) {
    lines.push(`  state "subflow ${label(name)}" as subflow_${nodeId(name)} {`);
    renderBody(sub, lines, '    ', `${nodeId(name)}__`);
    lines.push('  }');
  }
  return `${lines.join('\n')}\n`;
}

function renderBody(body: SubflowDocument, lines: string[], indent: string, prefix = ''): void {
  const id = (name: string) => prefix + nodeId(name);
  const edge = (from: string, to: string, text: string) =>
    lines.push(`${indent}${id(from)} --> ${id(to)}${text ? ` : ${label(text)}` : ''}`);
  const transitions = (from: string, value: FlowTransitions | undefined, text: string) => {
    for (const t of transitionList(value)) if (t.goto !== undefined) edge(from, t.goto, text + condition(t));
  };
  lines.push(`${indent}[*] --> ${id(body.start)}`);
  for (const [name, state] of Object.entries(body.states) as [string, StateDocument][]) {
    const stepLabels = (state.steps ?? []).map((step) => {
      const [stepName, params] =
        typeof step === 'string'
          ? [step, {}]
          : (Object.entries(step)[0] as [string, Record<string, unknown>]);
      const definition = stepDefinition(stepName);
      return definition?.label ? definition.label(params) : stepName;
    });
    const description = [state.description, ...stepLabels].filter((x): x is string => Boolean(x));
    lines.push(`${indent}state "${label(name)}" as ${id(name)}`);
    for (const d of description) lines.push(`${indent}${id(name)} : ${label(d)}`);
    (state.steps ?? []).forEach((step) => {
      if (typeof step === 'string') return;
      const [stepName, params] = Object.entries(step)[0] as [string, Record<string, unknown>];
      const definition = stepDefinition(stepName);
      for (const [outcome, value] of Object.entries((params.on ?? {}) as Record<string, FlowTransitions>))
        transitions(name, value, `${stepName} ${outcome}`);
      for (const route of definition?.routes?.(params, []) ?? [])
        transitions(name, route.transitions, `${stepName} ${route.label}`);
    });
    transitions(name, state.next as FlowTransitions | undefined, '');
    for (const c of state.choose ?? [])
      edge(name, c.goto, c.when === undefined ? 'otherwise' : `[${String(c.when)}]`);
    for (const [event, value] of Object.entries(state.on ?? {})) transitions(name, value, event);
    for (const [delay, value] of Object.entries(state.after ?? {}))
      transitions(name, value, `after ${delay}`);
    // A step that ends the call (hangup, continue) says so in its definition.
    const ends =
      state.final ||
      (state.steps ?? []).some((s) =>
        (typeof s === 'string' ? [s] : Object.keys(s)).some((name) => stepDefinition(name)?.endsCall),
      );
    if (ends) lines.push(`${indent}${id(name)} --> [*]`);
  }
  for (const [event, value] of Object.entries(body.on ?? {})) {
    for (const t of transitionList(value))
      if (t.goto !== undefined)
        lines.push(`${indent}note right of ${id(t.goto)} : on ${label(event)} from any state`);
  }
}
