import { type Flow, formatPath, type Path } from '@ringflow/dsl';

/** An agent step of a flow: the protocol it speaks and where it is written (`file:line:col`). */
export interface AgentStepProtocol {
  readonly protocol: 'text' | 'audio';
  readonly place: string;
}

/**
 * The agent steps of the flows a scenario file runs, wherever they sit (a state's steps, a
 * handler's, a branch's), in the order written: a scenario's bot must speak their protocols.
 */
export function agentStepProtocols(flows: readonly Flow[]): AgentStepProtocol[] {
  const found: AgentStepProtocol[] = [];
  for (const flow of flows) {
    const visit = (value: unknown, path: Path) => {
      if (Array.isArray(value)) {
        value.forEach((item, i) => {
          const step = item as Record<string, unknown> | null;
          const agent = step !== null && typeof step === 'object' ? step.agent : undefined;
          if (agent !== null && typeof agent === 'object' && !Array.isArray(agent)) {
            const protocol = (agent as { protocol?: unknown }).protocol === 'audio' ? 'audio' : 'text';
            const at = [...path, i];
            found.push({ protocol, place: flow.where?.(at) ?? `${flow.source} ${formatPath(at)}` });
          } else visit(item, [...path, i]);
        });
      } else if (value !== null && typeof value === 'object')
        for (const [key, inner] of Object.entries(value)) visit(inner, [...path, key]);
    };
    visit(flow.document, []);
  }
  return found;
}
