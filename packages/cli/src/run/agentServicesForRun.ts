import type { Flow } from '@ringflow/dsl';
import type { AgentMetricsSink, AgentProtocol, AgentServices } from '@ringflow/runtime';

/** The bots a flow's agent steps name, with their protocols (literal `bot:`s; expressions as `{ expr }`). */
export interface FlowAgentSteps {
  readonly count: number;
  readonly protocols: ReadonlySet<AgentProtocol>;
  readonly bots: readonly string[];
}

/** Finds the agent steps of a flow, wherever they sit (a state's steps, branches of other steps). */
export function agentStepsOf(flow: Flow): FlowAgentSteps {
  const protocols = new Set<AgentProtocol>();
  const bots: string[] = [];
  let count = 0;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const agent = (value as { agent?: unknown }).agent;
    if (typeof agent === 'object' && agent !== null && 'bot' in agent) {
      const step = agent as { bot: unknown; protocol?: AgentProtocol };
      count++;
      protocols.add(step.protocol ?? 'text');
      bots.push(typeof step.bot === 'string' ? step.bot : '{ expr }');
    }
    for (const child of Object.values(value)) visit(child);
  };
  visit(flow.document.states);
  return { count, protocols, bots: [...new Set(bots)] };
}

/**
 * What `ringflow run` gives a flow's agent steps on a server: bots reached at the URLs the flow
 * names, media sockets connected in to the server's HTTP port (`/media/<id>`), and, when a step
 * speaks the text relay, the local speech providers (espeak-ng, pocketsphinx). A flow without
 * agent steps gets none (undefined); what cannot be given is a `problem` to stop on, before any
 * call arrives.
 */
export async function agentServicesForRun(
  flow: Flow,
  options: {
    readonly ariUrl: string | undefined;
    readonly metrics: AgentMetricsSink;
    /** Where the local speech programs are looked for (PATH's directories); default PATH. */
    readonly path?: string;
  },
): Promise<{ readonly agents?: AgentServices; readonly summary?: string } | { readonly problem: string }> {
  const steps = agentStepsOf(flow);
  if (steps.count === 0) return {};
  if (options.ariUrl === undefined)
    return {
      problem:
        "the flow has agent steps: the caller's audio reaches the bot through a media socket on the server's HTTP port, so give --server (with --listen too)",
    };
  const { createAgentServices, findLocalSpeech } = await import('@ringflow/runtime');
  let speech = {};
  if (steps.protocols.has('text')) {
    const local = findLocalSpeech(options.path !== undefined ? { path: options.path } : {});
    if ('problem' in local)
      return {
        problem: `the flow's agent steps speak the text relay (ringflow does the speech), but ${local.problem}; or give the steps protocol: audio (the bot does its own speech)`,
      };
    speech = local;
  }
  const protocols = [...steps.protocols].map((p) =>
    p === 'text' ? 'text relay (espeak-ng, pocketsphinx)' : 'audio',
  );
  return {
    agents: createAgentServices({ ariUrl: options.ariUrl, ...speech, metrics: options.metrics }),
    summary: `agent steps: ${protocols.join(' and ')}; bots ${steps.bots.join(', ')}`,
  };
}
