import { s } from '../schema/s.ts';
import { FLOW_NAME, flowNameHint } from './flowName.ts';

/** State names follow the rule of every name a flow defines (they are also XState keys). */
export const STATE_NAME = FLOW_NAME;

export const targetSchema = s.string({
  description: 'The name of a state of this flow.',
  pattern: STATE_NAME,
  patternHint: flowNameHint('a state'),
});

/** A transition: a state name, or `{ goto, if, set }`. */
export const transitionSchema = s.named('Transition', () =>
  s.union([
    targetSchema,
    s.object(
      {
        goto: s.optional(targetSchema),
        if: s.optional(s.condition({ description: 'Take this transition only when the condition holds.' })),
        set: s.optional(
          s.record(s.value(s.any()), {
            description: 'Flow variables to assign, each a literal or { expr }.',
            keyPattern: FLOW_NAME,
            keyHint: flowNameHint('a variable'),
          }),
        ),
      },
      { description: 'Go to a state (or stay), optionally only if a condition holds, assigning variables.' },
    ),
  ]),
);

/** One transition, or a list tried in order (the first whose `if` holds is taken). */
export const transitionsSchema = s.named('Transitions', () =>
  s.union([transitionSchema, s.array(transitionSchema, { minItems: 1 })]),
);

export type FlowTransition = string | { goto?: string; if?: string | boolean; set?: Record<string, unknown> };
export type FlowTransitions = FlowTransition | FlowTransition[];

/** Normalises a transitions field into a list of object transitions. */
export function transitionList(
  value: FlowTransitions | undefined,
): { goto?: string; if?: string | boolean; set?: Record<string, unknown> }[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((t) => (typeof t === 'string' ? { goto: t } : t));
}
