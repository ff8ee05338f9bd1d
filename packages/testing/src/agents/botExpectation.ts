import type { BotResult } from '@ringflow/runtime';

/** The endings ringflow tells a bot in `hangup` (the session's outcome when the bot did not end it). */
export const RINGFLOW_ENDINGS = ['botSilent', 'callerSilent', 'timeout', 'key', 'hungUp'] as const;
export type SessionEnding = BotResult | (typeof RINGFLOW_ENDINGS)[number];
import type { ScenarioAgents } from './ScenarioAgents.ts';

/** What a scenario expects of one call's conversation with its bot. */
export interface BotExpectation {
  /** Words the caller heard from the bot, in this order (each contained in what was heard, any case). */
  readonly said?: readonly string[];
  /**
   * How many times the bot's audio was cut short: the caller talked over it (ringflow's
   * barge-in), or an audio bot cleared it (`clear`, its own barge-in).
   */
  readonly interrupted?: number;
  /** The tools the bot asked for, in order. */
  readonly tools?: readonly string[];
  /**
   * How the session ended: the bot's `end` (handoff, done, failed), or, when ringflow ended it,
   * the reason it told the bot (`hangup`: botSilent, callerSilent, timeout, key, hungUp).
   */
  readonly ended?: SessionEnding;
  /** How much of the bot's audio the caller heard (ms, 20 ms frames played), over all its sessions. */
  readonly heard?: { readonly atLeastMs?: number; readonly atMostMs?: number };
  /** An audio bot's marks, as ringflow answered them: played (heard to there) or dropped, in order. */
  readonly marks?: { readonly played?: readonly string[]; readonly dropped?: readonly string[] };
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
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
  // Words when the audio carries them (the simulated voice), else how long it played.
  const heardText =
    heard
      .map(
        (h) =>
          `${h.text !== '' ? `"${h.text}"` : `${seconds(h.ms)} of sound`}${h.flushed ? ' (cut short)' : ''}`,
      )
      .join(', ') || 'nothing';
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
    const times = messages.filter(
      (m) => 'type' in m && (m.type === 'interrupted' || m.type === 'clear'),
    ).length;
    if (times !== expected.interrupted)
      fail(
        `the bot's audio to be cut short ${expected.interrupted} time(s) (${call} talking over it, or the bot's clear)`,
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
  if (expected.heard) {
    const ms = heard.reduce((sum, h) => sum + h.ms, 0);
    const { atLeastMs, atMostMs } = expected.heard;
    const stretches = heard.map((h) => `${seconds(h.ms)}${h.flushed ? ' (cut short)' : ''}`).join(', ');
    if ((atLeastMs !== undefined && ms < atLeastMs) || (atMostMs !== undefined && ms > atMostMs))
      fail(
        `${call} to hear ${[
          atLeastMs !== undefined ? `at least ${seconds(atLeastMs)}` : '',
          atMostMs !== undefined ? `at most ${seconds(atMostMs)}` : '',
        ]
          .filter(Boolean)
          .join(' and ')} of the bot's audio`,
        `${call} heard ${seconds(ms)}${heard.length > 1 ? ` (${stretches})` : ''}`,
      );
  }
  if (expected.marks) {
    const reached = agents
      .exchanges(call)
      .flatMap((e) => (e.from === 'ringflow' && e.message.type === 'mark' ? [e.message] : []));
    for (const played of [true, false]) {
      const want = played ? expected.marks.played : expected.marks.dropped;
      if (want === undefined) continue;
      const got = reached.filter((m) => m.played === played).map((m) => m.name);
      if (got.join('\n') !== want.join('\n'))
        fail(
          `the bot's marks ${want.join(', ') || 'none'} ${played ? 'played' : 'dropped'}`,
          `${played ? 'played' : 'dropped'}: ${got.join(', ') || 'none'}; ${
            reached.map((m) => `${m.name} ${m.played ? 'played' : 'dropped'}`).join(', ') ||
            'no mark answered'
          }`,
        );
    }
  }
  if (expected.ended !== undefined) {
    const end = messages.findLast((m) => 'type' in m && m.type === 'end');
    const hangup = messages.findLast((m) => 'type' in m && m.type === 'hangup');
    const happened =
      end && 'result' in end
        ? { result: end.result, text: `the bot ended it with ${end.result}` }
        : hangup && 'reason' in hangup
          ? { result: hangup.reason, text: `ringflow ended it: ${hangup.reason}` }
          : undefined;
    if (happened?.result !== expected.ended)
      fail(
        `the session to end with ${expected.ended}`,
        happened?.text ?? 'it did not end (the bot sent no end, ringflow no hangup)',
      );
  }
}
