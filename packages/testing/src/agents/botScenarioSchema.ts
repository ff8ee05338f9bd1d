import { BOT_RESULTS } from '@ringflow/runtime/agent-session';
import { s } from '@ringflow/dsl';

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

/** `bot: unreachable`, `bot: ./my-bot.mjs` (a module whose default export is a TextBot), or a script. */
export const botSchema = s.union([
  s.string({
    description:
      'unreachable (connecting fails), or a JavaScript module (relative to this file) exporting a TextBot as default',
  }),
  s.object(
    {
      greet: s.optional(s.string({ description: 'What the bot says once the call is set up.' })),
      turns: s.optional(s.array(turnSchema, { description: 'One turn per caller utterance, in order.' })),
    },
    { description: 'A scripted bot.' },
  ),
]);

/** `say: where is my order`: the caller's words. */
export const saySchema = s.string({ description: 'What the caller says to the bot.' });

/** `expect: { bot: { said, interrupted, tools, ended } }`. */
export const botExpectationSchema = s.object({
  said: s.optional(
    s.union([s.string(), s.array(s.string())], {
      description: 'Words the caller heard from the bot, in order (each contained, any case).',
    }),
  ),
  interrupted: s.optional(
    s.integer({ min: 0, description: 'How many times the caller talked over the bot.' }),
  ),
  tools: s.optional(s.array(s.string(), { description: 'The tools the bot asked for, in order.' })),
  ended: s.optional(s.enum(BOT_RESULTS, { description: 'How the bot ended the session.' })),
});
