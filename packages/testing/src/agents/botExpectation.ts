import type { BotResult } from '@ringflow/runtime';
import type { ScenarioAgents } from './ScenarioAgents.ts';

/** What a scenario expects of one call's conversation with its bot. */
export interface BotExpectation {
  /** Words the caller heard from the bot, in this order (each contained in what was heard, any case). */
  readonly said?: readonly string[];
  /** How many times the caller talked over the bot (its audio was flushed). */
  readonly interrupted?: number;
  /** The tools the bot asked for, in order. */
  readonly tools?: readonly string[];
  /** How the bot ended the session. */
  readonly ended?: BotResult;
}

/**
 * Checks a call's conversation; each problem is told with what happened (`fail(expected, happened)`).
 * @example checkBotExpectation(scenario.agents, 'caller', 'c1', { said: ['shipped'], ended: 'done' }, fail);
 */
export function checkBotExpectation(
  agents: ScenarioAgents,
  call: string,
  channelId: string,
  expected: BotExpectation,
  fail: (expected: string, happened: string) => never,
): void {
  const heard = agents.heard(channelId);
  const heardText = heard.map((h) => `"${h.text}"${h.flushed ? ' (cut short)' : ''}`).join(', ') || 'nothing';
  if (expected.said) {
    const all = heard.map((h) => h.text.toLowerCase()).join(' | ');
    let from = 0;
    for (const words of expected.said) {
      const at = all.indexOf(words.toLowerCase(), from);
      if (at < 0)
        fail(
          `${call} to hear the bot say "${words}"${from > 0 ? ' after what came before' : ''}`,
          `${call} heard ${heardText}`,
        );
      from = at + words.length;
    }
  }
  const messages = agents.exchanges(call).map((e) => e.message);
  if (expected.interrupted !== undefined) {
    const times = messages.filter((m) => 'type' in m && m.type === 'interrupted').length;
    if (times !== expected.interrupted)
      fail(
        `${call} to talk over the bot ${expected.interrupted} time(s)`,
        `${times} time(s); ${call} heard ${heardText}`,
      );
  }
  if (expected.tools) {
    const asked = messages.flatMap((m) => ('type' in m && m.type === 'tool' ? [m.name] : []));
    if (asked.join(',') !== expected.tools.join(','))
      fail(
        `the bot to ask for ${expected.tools.join(', ') || 'no tool'}`,
        `it asked for ${asked.join(', ') || 'none'}`,
      );
  }
  if (expected.ended !== undefined) {
    const end = messages.findLast((m) => 'type' in m && m.type === 'end');
    const result = end && 'result' in end ? end.result : undefined;
    if (result !== expected.ended)
      fail(
        `the bot to end the session with ${expected.ended}`,
        result ? `it ended with ${result}` : 'it did not end it',
      );
  }
}
