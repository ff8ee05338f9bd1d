import type { QueueSettings } from '@ringflow/runtime';
import type { ActionArgs, FlowContext } from '../compile/FlowContext.ts';
import type { Action, StateSpec, TransitionSpec } from '../compile/StateSpec.ts';
import { FLOW_NAME, flowNameHint } from '../model/flowName.ts';
import { type FlowTransitions, transitionsSchema } from '../model/transition.ts';
import { type Infer, type InferProps, type Optional, type Schema, s } from '../schema/s.ts';
import type { InputDeclaration } from '../inputs/convertFlowInputs.ts';
import type { Diagnostic, Path } from '../validate/Diagnostic.ts';
import type { TypeShape } from '../expr/TypeShape.ts';

/**
 * What an outcome means for the flow when the step's `on` does not route it:
 * - success: go on with the next step;
 * - failure: the state's or the flow's `error` handler (else the flow ends with status failed);
 * - hangup: the caller's channel is gone; the flow's `hangup` handler runs;
 * - ended: the flow hung the call up itself and ends (status completed);
 * - continued: the call left for the dialplan; the flow ends (status continued).
 */
export type OutcomeKind = 'success' | 'failure' | 'hangup' | 'ended' | 'continued';

/** The CEL type of a result field, as the validator checks expressions that read it. */
export type ResultFieldType = 'string' | 'int' | 'bool' | 'map' | 'dyn';

export interface OutcomeSpec {
  readonly name: string;
  readonly kind: OutcomeKind;
  readonly description: string;
  /**
   * Fields of the result (`event.<field>` while routing, and `vars.<as>` when `as` is set): each
   * its type and what it holds. Every result also has `outcome`, `step` and `state` (text).
   */
  readonly data?: Readonly<Record<string, readonly [type: ResultFieldType, description: string]>>;
}

/** Compile-time facts a step needs about its flow. */
export interface FlowCompileInfo {
  /** Media of a prompt in a language (undefined when the catalogue has none). */
  prompt(name: string, language: string): readonly string[] | undefined;
  readonly defaultLanguage: string;
  /** Compiled machines of the document's subflows. */
  subflow(name: string): unknown;
  /** The settings of a queue of the document's `queues:` section, undefined when it has none of that name. */
  queue(name: string): QueueSettings | undefined;
}

/** Handed to a step's compile function: how to leave the step with an outcome. */
export interface StepBuild {
  /** Unique key of this step in the machine (for ids and scratch entries). */
  readonly key: string;
  readonly flow: FlowCompileInfo;
  /**
   * A transition that ends the step with an outcome. `data` computes the result fields from the
   * context and the event that ended the step; `before` are actions run first. (Never spread an
   * exit after your own `actions`: its actions would replace them.)
   */
  exit(
    outcome: string,
    data?: (args: ActionArgs) => Record<string, unknown>,
    before?: readonly Action[],
  ): TransitionSpec;
}

/** An extra route of an outcome decided by the step's own parameters (menu choices). */
export interface StepRoute {
  readonly outcome: string;
  readonly label: string;
  readonly matches: (result: Readonly<Record<string, unknown>>) => boolean;
  readonly transitions: FlowTransitions;
  readonly path: Path;
}

/**
 * Where a step names what it plays, for the validator: the object at `at` (from the step's
 * parameters; `[]` is the step itself, a missing object is skipped) holds catalogue prompt names
 * under `promptField` (one name or a list), media URIs under `media`, and a `language`.
 */
export interface SoundFields {
  readonly at: Path;
  /** Default `prompt`; menu retries list theirs under `prompts`. */
  readonly promptField?: string;
  /** When set, prompt or media must be given; the words that name what needs them ("The play step"). */
  readonly required?: string;
}

/** What a step's own checks may look at besides its parameters. */
export interface StepCheckScope {
  /** The document's subflows by name, with the inputs each declares. */
  readonly subflows: Readonly<
    Record<string, { readonly inputs?: Readonly<Record<string, InputDeclaration>> }>
  >;
  /** The names of the document's queues (`queues:`). */
  readonly queues: readonly string[];
}

/** One built-in step: its parameters, its outcomes and how it compiles to a small statechart. */
export interface StepDefinition<P = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly params: Schema<P>;
  /** May be written as a bare name in a step list (`- answer`). */
  readonly bare: boolean;
  readonly outcomes: readonly OutcomeSpec[];
  compile(params: P, build: StepBuild): StateSpec;
  /** Routes chosen by the parameters (e.g. menu choices to states). */
  routes?(params: P, path: Path): StepRoute[];
  /**
   * What `event` is in the expressions under some of its parameters, when it is not one of its
   * own results (the agent step's tools: the bot's request). Each path is absolute, as `path`.
   */
  eventShapes?(params: P, path: Path): readonly { readonly path: Path; readonly shape: TypeShape }[];
  /** The outcomes this use of the step can have, when the parameters rule some out (dial's bridge). */
  possibleOutcomes?(params: P): readonly string[];
  /** Short text for diagrams. */
  label?(params: P): string;
  /** Where it names prompts, media and a language (checked against the prompt catalogue). */
  readonly sounds?: readonly SoundFields[];
  /** It ends the call (hangup, continue): a state where it runs unconditionally is a way out. */
  readonly endsCall?: boolean;
  /** It never waits for the server or a timer: a state made only of such steps passes control at once. */
  readonly instant?: boolean;
  /** Checks of its parameters against the rest of the flow (subflow names, menu keys), as diagnostics. */
  check?(params: P, path: Path, scope: StepCheckScope): readonly Diagnostic[];
}

/** Fields every step accepts besides its own. */
export const commonStepFields = {
  if: s.optional(
    s.condition({
      description: 'Run the step only when this condition holds; otherwise skip to the next one.',
    }),
  ),
  as: s.optional(
    s.string({
      description: 'Store the step result (outcome and data) in this flow variable.',
      pattern: FLOW_NAME,
      patternHint: flowNameHint('a variable'),
    }),
  ),
  on: s.optional(
    s.record(transitionsSchema, {
      description:
        'Where each outcome goes (outcome name -> transition). Unrouted success outcomes go on to the next step.',
    }),
  ),
};

type Shapes = Record<string, Schema<unknown> | Optional<unknown>>;

/** The parameter schema of a step: its own fields plus the common ones. */
export function stepParams<P extends Shapes>(
  props: P,
  description: string,
): Schema<InferProps<P & typeof commonStepFields>> {
  return s.object({ ...props, ...commonStepFields }, { description });
}

/** Parameters common to every step, as typed values. */
export type CommonStepParams = Infer<ReturnType<typeof stepParams<{}>>>;

/** Declares a step definition with its parameter type inferred from the schema. */
export function defineStep<P>(definition: StepDefinition<P>): StepDefinition<P> {
  return definition;
}

/** The channel of this call. */
export function ownChannel(context: FlowContext): string {
  return context.call.channelId;
}
