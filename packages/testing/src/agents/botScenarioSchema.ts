import { BOT_RESULTS } from '@ringflow/runtime/agent-session';
import { s } from '@ringflow/dsl';
import { RINGFLOW_ENDINGS } from './botExpectation.ts';

/**
 * The parts of a scenario file about agent steps, in the schema language of the file: the bot
 * (`bot:`), the caller's words (`say:`) and what is expected of the conversation (`expect: { bot }`).
 */

const endSchema = s.object({
  result: s.enum(BOT_RESULTS, { description: 'How the bot ends the session: the flow routes on it.' }),
  data: s.optional(s.record(s.any(), { description: "The end's data (vars.<as>.data in the flow)." })),
});

const turnSchema = s.object({
  hears: s.optional(s.string({ description: 'Words the caller must have said (contained, any case).' })),
  tool: s.optional(
    s.object({
      name: s.string({ description: "A tool of the agent step's tools:." }),
      args: s.optional(s.record(s.any(), { description: "The tool's arguments (event.args)." })),
    }),
  ),
  say: s.optional(s.string({ description: "The bot's words; {tool} is the tool's answer." })),
  end: s.optional(endSchema),
});

const greetSchema = s.optional(s.string({ description: 'What the bot says once the call is set up.' }));
const turnsSchema = s.optional(
  s.array(turnSchema, { description: 'One turn per caller utterance, in order.' }),
);

/** One session's script in `sessions:`, or `unreachable`. */
const sessionSchema = s.union([
  s.enum(['unreachable'] as const, { description: "This session's bot cannot be reached." }),
  s.object(
    { greet: greetSchema, turns: turnsSchema },
    { description: "One session's script (text relay): its greeting and turns." },
  ),
]);

/**
 * `bot: unreachable`, `bot: ./my-bot.mjs` (a module: its default export a TextBot, its export
 * `audioBot` an audio bot), or a script (text relay).
 */
export const botSchema = s.union([
  s.string({
    description:
      'unreachable (connecting fails), or a module (relative to this file) exporting a TextBot as default (text relay) and/or audioBot, a function given { clock } that returns an AudioBot (protocol: audio)',
  }),
  s.object(
    {
      url: s.optional(
        s.string({
          pattern: /^wss?:\/\/\S+$/,
          patternHint: 'a WebSocket URL: ws://host:port/path',
          description:
            "A bot served on a real WebSocket (reached with the step's protocol); the scenario's time then passes as on the wall. Not with greet or turns.",
        }),
      ),
      greet: greetSchema,
      turns: turnsSchema,
      sessions: s.optional(
        s.array(sessionSchema, {
          description:
            'A script per agent session of the call, in the order they open (a step entered again, another agent step); instead of greet and turns, which every session plays.',
        }),
      ),
    },
    { description: 'A scripted bot (text relay), or { url } for a bot served on a real WebSocket.' },
  ),
]);

/** `say: where is my order`: the caller's words. */
export const saySchema = s.string({ description: 'What the caller says to the bot.' });

/** `expect: { bot: { said, interrupted, tools, ended, heard, marks } }`. */
export const botExpectationSchema = s.object({
  said: s.optional(
    s.union([s.string(), s.array(s.string())], {
      description: 'Words the caller heard from the bot, in order (each contained, any case).',
    }),
  ),
  interrupted: s.optional(
    s.integer({
      min: 0,
      description:
        "How many times the bot's audio was cut short: the caller talked over it (barge-in), or an audio bot cleared it.",
    }),
  ),
  tools: s.optional(s.array(s.string(), { description: 'The tools the bot asked for, in order.' })),
  ended: s.optional(
    s.enum([...BOT_RESULTS, ...RINGFLOW_ENDINGS], {
      description:
        "How the session ended: the bot's end (handoff, done, failed), or the reason ringflow told it (botSilent, callerSilent, timeout, key, hungUp).",
    }),
  ),
  heard: s.optional(
    s.object(
      {
        atLeast: s.optional(s.duration({ description: "At least this much of the bot's audio was heard." })),
        atMost: s.optional(s.duration({ description: "At most this much of the bot's audio was heard." })),
      },
      { description: "How much of the bot's audio the caller heard (20 ms frames played, all sessions)." },
    ),
  ),
  marks: s.optional(
    s.object(
      {
        played: s.optional(
          s.array(s.string(), { description: "An audio bot's marks reached as played, in order." }),
        ),
        dropped: s.optional(
          s.array(s.string(), {
            description: "An audio bot's marks dropped (a clear, a barge-in, the end), in order.",
          }),
        ),
      },
      { description: "An audio bot's marks: its audio heard to that point, or dropped." },
    ),
  ),
});
