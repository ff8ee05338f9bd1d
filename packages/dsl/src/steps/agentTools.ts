import { AGENT_TOOL_RESULT } from '@ringflow/runtime/agent-session';
import { fromCallback } from 'xstate';
import { type ActionArgs, resolveValue, scopeOf } from '../compile/FlowContext.ts';
import type { FlowHost, FlowQueue } from '../compile/FlowHost.ts';
import { checkValue } from '../schema/checkValue.ts';
import { type Infer, s } from '../schema/s.ts';
import { type Diagnostic, diagnostic, type Path } from '../validate/Diagnostic.ts';
import { didYouMean } from '../validate/suggest.ts';
import { HttpStepError } from './HttpStepError.ts';
import { type HttpRequest, httpRequestFields, resolveHttpRequest, sendHttpRequest } from './httpRequest.ts';
import type { FlowCompileInfo } from './StepDefinition.ts';

/**
 * The agent step's `tools:`: what the flow answers when the bot asks (`{"type":"tool"}`). A tool
 * is a literal or `{ expr }` (in which `event.args` are the bot's arguments), a webhook
 * (`{ http: { url, method, headers, body, timeout } }`, the `http` step's request, expressions
 * allowed), or a queue's state (`{ queue: support }`).
 */
const httpTool = s.object(
  {
    http: s.object(
      { ...httpRequestFields },
      {
        description:
          "A webhook asked while the step runs; the bot gets the answer's body (JSON parsed when JSON), or an error with the reason (status, network, timeout). event.args holds the bot's arguments.",
      },
    ),
  },
  { description: 'A tool answered by an HTTP request.' },
);

const queueTool = s.object(
  {
    queue: s.string({ description: "One of the flow's queues (queues:)." }),
  },
  {
    description:
      "A tool answered with a queue's state: { queue, waiting, agentsFree, position, estimatedWaitSeconds } (see docs/agents.md).",
  },
);

/** One tool: a webhook, a queue's state, or a literal or `{ expr }`. */
export const agentToolSchema = s.union([httpTool, queueTool, s.value(s.any())], {
  description:
    "Answers the bot's tool request: { http: {...} } (a webhook), { queue: <name> } (a queue's state), or a literal or { expr } (event.args holds the bot's arguments).",
});

type HttpTool = Infer<typeof httpTool>;
type QueueTool = Infer<typeof queueTool>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A tool written `{ http: ... }`: an object with an `http` field (any other field is reported, so
 * that a misplaced `timeout` is not taken for a literal answer).
 */
function isHttpTool(tool: unknown): tool is HttpTool {
  return isPlainObject(tool) && Object.hasOwn(tool, 'http');
}

/** A tool written `{ queue: ... }` (an object with a `queue` field and no `http`). */
function isQueueTool(tool: unknown): tool is QueueTool {
  return isPlainObject(tool) && Object.hasOwn(tool, 'queue') && !Object.hasOwn(tool, 'http');
}

/**
 * Problems of the tools written as webhooks or queues, at their place (the schema's union lets
 * any object through as a literal answer): the request's fields as the `http` step checks them,
 * and queue names the flow does not have.
 */
export function checkAgentTools(tools: unknown, path: Path, queues: readonly string[]): Diagnostic[] {
  if (!isPlainObject(tools)) return [];
  const out: Diagnostic[] = [];
  for (const [name, tool] of Object.entries(tools)) {
    const at = [...path, name];
    if (isHttpTool(tool)) out.push(...checkValue(httpTool.node, tool, at).diagnostics);
    else if (isQueueTool(tool)) {
      const problems = checkValue(queueTool.node, tool, at).diagnostics;
      out.push(...problems);
      if (problems.length === 0 && !queues.includes(tool.queue))
        out.push(
          diagnostic(
            'unknown-queue',
            [...at, 'queue'],
            `No queue named "${tool.queue}".${didYouMean(tool.queue, queues) || ' Define it under queues: (its agents and ring strategy).'}`,
          ),
        );
    }
  }
  return out;
}

/** What the step does with a tool request: answer at once, or ask a webhook first. */
export type ToolWork =
  | { readonly kind: 'answer'; readonly message: Record<string, unknown> }
  | { readonly kind: 'http'; readonly id: string; readonly name: string; readonly request: HttpRequest };

/**
 * How the step answers one tool request (the event is the session's `ringflow.agent.tool`): a
 * tool it lacks, or whose expressions fail, is answered with an error; the session goes on.
 */
export function toolWork(
  tools: Readonly<Record<string, unknown>>,
  flow: Pick<FlowCompileInfo, 'queue'>,
  args: ActionArgs,
): ToolWork {
  const { event } = args;
  const rawId = 'id' in event ? event.id : undefined;
  const name = 'name' in event ? event.name : undefined;
  const id = String(rawId);
  const answer = (fields: { result: unknown } | { error: string }): ToolWork => ({
    kind: 'answer',
    message: { type: AGENT_TOOL_RESULT, id, ...fields },
  });
  if (typeof name !== 'string' || !Object.hasOwn(tools, name))
    return answer({
      error: `no tool named ${String(name)}; this flow has: ${Object.keys(tools).join(', ') || 'none'}`,
    });
  const tool = tools[name];
  try {
    const scope = scopeOf(args.context, args.event);
    if (isHttpTool(tool)) return { kind: 'http', id, name, request: resolveHttpRequest(tool.http, scope) };
    if (isQueueTool(tool)) return answer({ result: queueFacts(tool.queue, flow, args) });
    return answer({ result: resolveValue(tool, scope) });
  } catch (e) {
    return answer({ error: `the tool ${name} failed: ${(e as Error).message}` });
  }
}

/**
 * What the queue says now, as much as the host's queue tells: `position` is this caller's place
 * (0 while it is not waiting in it, as in an agent step), `waiting` the callers in it and
 * `agentsFree` the agents who could answer now (when the host gives them), `estimatedWaitSeconds`
 * what callers waited lately before an answer (absent before the first answer).
 */
function queueFacts(
  name: string,
  flow: Pick<FlowCompileInfo, 'queue'>,
  { context }: ActionArgs,
): Record<string, unknown> {
  const settings = flow.queue(name);
  if (!settings) throw new Error(`queue "${name}" is not defined under queues:`);
  if (!context.host.queue) throw new Error('this flow runs without call queues (its host has no queue())');
  const queue: FlowQueue = context.host.queue(name, settings);
  const waitMs = queue.expectedWaitMs();
  return {
    queue: name,
    position: queue.position(),
    ...(queue.waiting ? { waiting: queue.waiting() } : {}),
    ...(queue.agentsFree ? { agentsFree: queue.agentsFree() } : {}),
    ...(waitMs !== undefined ? { estimatedWaitSeconds: Math.round(waitMs / 1000) } : {}),
  };
}

/** What the tool desk gets: a webhook to ask for the bot. */
export type ToolDeskEvent = { readonly type: 'ask' } & Extract<ToolWork, { kind: 'http' }>;

/**
 * The agent step's webhooks: invoked beside the session, it sends each tool request it is given
 * and answers the flow with `ringflow.agent.toolResult` (the body, or an error with the reason);
 * several may be under way. Stopped with its state (the session ended), it aborts those still
 * waiting: their answers are dropped.
 */
export const toolDesk = fromCallback<ToolDeskEvent, { readonly host: Pick<FlowHost, 'clock' | 'fetch'> }>(
  ({ input, receive, sendBack }) => {
    const stopped = new AbortController();
    receive((event) => {
      if (event.type !== 'ask') return;
      const { id, name, request } = event;
      const { host } = input;
      sendHttpRequest(request, {
        clock: host.clock,
        signal: stopped.signal,
        ...(host.fetch ? { fetch: host.fetch } : {}),
      }).then(
        (answer) => {
          if (!stopped.signal.aborted) sendBack({ type: AGENT_TOOL_RESULT, id, result: answer.body });
        },
        (e: unknown) => {
          if (stopped.signal.aborted) return;
          const why =
            e instanceof HttpStepError
              ? `${e.reason}${e.status !== undefined ? ` ${e.status}` : ''}`
              : 'network';
          sendBack({
            type: AGENT_TOOL_RESULT,
            id,
            error: `the tool ${name} failed (${why}): ${(e as Error).message}`,
          });
        },
      );
    });
    return () => stopped.abort();
  },
);
