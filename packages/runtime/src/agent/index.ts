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
export { AgentMetrics } from './AgentMetrics.ts';
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
export { type BotConversation, type BotLink, linkInProcessBot, type TextBot } from './BotLink.ts';
export type { MediaConnector } from './MediaLink.ts';
export {
  BOT_RESULTS,
  type BotMessage,
  type BotResult,
  type CallerMessage,
  type EndMessage,
  type HangupMessage,
  type InterruptedMessage,
  type KeyMessage,
  parseBotMessage,
  parseRelayMessage,
  type RelayMessage,
  type SayMessage,
  type SetupMessage,
  TEXT_RELAY_PROTOCOL,
  type ToolMessage,
  type ToolResultMessage,
} from './textRelayProtocol.ts';
export * from './audioBotProtocol.ts';
export {
  type AudioBot,
  type AudioBotConversation,
  type AudioBotLink,
  connectWebSocketAudioBot,
  linkInProcessAudioBot,
  serveAudioBot,
} from './AudioBotLink.ts';
export { SimulatedSpeechToText } from '../speech/simulatedSpeechToText.ts';
export { SIMULATED_WORD_MS, SimulatedTextToSpeech, wordsInSlin } from '../speech/simulatedTextToSpeech.ts';
export { connectWebSocketBot, type ServedBot, serveTextBot } from './webSocketBot.ts';
export { type AgentServicesOptions, createAgentServices } from './createAgentServices.ts';
export { heldMediaLink } from './heldMediaLink.ts';
export { agentInputOfCall } from './agentInputOfCall.ts';
