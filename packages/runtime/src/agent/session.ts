/**
 * `@ringflow/runtime/agent-session`: the agent session and the words of its protocol, without
 * the rest of the runtime, so that the flow language (and `ringflow validate`) can name the
 * agent step's machine without loading the HTTP and WebSocket clients: the relay loads the
 * client's media protocol when a session starts.
 */
export {
  AGENT_OUTCOMES,
  AGENT_TOOL,
  AGENT_TOOL_RESULT,
  agentMachine,
  type AgentOutcome,
  type AgentSessionResult,
  type AgentToolAnswer,
  type AgentToolRequest,
} from './agentMachine.ts';
export {
  type AgentAri,
  type AgentCall,
  type AgentInput,
  type AgentLimits,
  type AgentMetricsSink,
  AGENT_PROTOCOLS,
  type AgentProtocol,
  type AgentServices,
  type AgentSettings,
  DEFAULT_AGENT_LIMITS,
} from './AgentServices.ts';
export { BOT_RESULTS, type BotResult, TEXT_RELAY_PROTOCOL } from './textRelayProtocol.ts';
