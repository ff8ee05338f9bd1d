import type { BotConversation, BotResult, TextBot } from '@ringflow/runtime';

/**
 * One turn of a scripted bot: what it does after the caller's next utterance, in order: asks a
 * tool (and waits for the flow's answer), says its words, ends the session. `hears` checks what
 * the caller said (text contained, case-insensitive); a turn with none of say/tool/end is the
 * bot staying silent.
 */
export interface BotTurn {
  readonly hears?: string;
  readonly tool?: { readonly name: string; readonly args?: Readonly<Record<string, unknown>> };
  /** Words to speak; `{tool}` is replaced by the tool's answer (JSON for objects). */
  readonly say?: string;
  readonly end?: { readonly result: BotResult; readonly data?: Readonly<Record<string, unknown>> };
}

/** One session of a scripted bot: a greeting when the call is set up, then one turn per caller utterance. */
export interface BotSession {
  readonly greet?: string;
  readonly turns?: readonly BotTurn[];
}

/**
 * A bot scripted by a test: its `greet` and `turns`, played by every session of the call's agent
 * steps; or `sessions`, one script per session in the order the call's sessions open (an agent
 * step entered again, or another one), `unreachable` for a session whose bot cannot be reached.
 */
export interface BotScript extends BotSession {
  readonly sessions?: readonly (BotSession | 'unreachable')[];
}

/**
 * The script of a call's session `index` (0: its first): `sessions[index]`, or the script itself
 * when it has no sessions; undefined when the call opens more sessions than the script has.
 */
export function sessionOfScript(script: BotScript, index: number): BotSession | 'unreachable' | undefined {
  return script.sessions ? script.sessions[index] : script;
}

/** What a scripted bot noticed that the script did not expect (a test reports these). */
export interface ScriptSurprise {
  readonly turn: number;
  readonly message: string;
}

function toolText(result: unknown): string {
  return typeof result === 'object' && result !== null ? JSON.stringify(result) : String(result);
}

/**
 * A text relay bot playing a script; `surprises` collects what did not go as scripted (words the
 * turn did not expect, more utterances than turns).
 * @example scriptedBot({ greet: 'Hello', turns: [{ hears: 'order', say: 'It shipped.', end: { result: 'done' } }] }, [])
 */
export function scriptedBot(script: BotSession, surprises: ScriptSurprise[]): TextBot {
  return (conversation: BotConversation) => {
    const turns = script.turns ?? [];
    let next = 0;
    const pendingTools = new Map<string, (answer: { result?: unknown; error?: string }) => void>();
    const play = async (turn: BotTurn, index: number) => {
      let toolAnswer = '';
      if (turn.tool) {
        const id = `t${index + 1}`;
        const answer = await new Promise<{ result?: unknown; error?: string }>((resolve) => {
          pendingTools.set(id, resolve);
          conversation.send({
            type: 'tool',
            id,
            name: turn.tool!.name,
            ...(turn.tool!.args ? { args: turn.tool!.args } : {}),
          });
        });
        toolAnswer = answer.error !== undefined ? `error: ${answer.error}` : toolText(answer.result);
      }
      if (turn.say !== undefined)
        conversation.send({ type: 'say', text: turn.say.replaceAll('{tool}', toolAnswer) });
      if (turn.end)
        conversation.send({
          type: 'end',
          result: turn.end.result,
          ...(turn.end.data ? { data: turn.end.data } : {}),
        });
    };
    conversation.onMessage((message) => {
      switch (message.type) {
        case 'setup':
          if (script.greet !== undefined) conversation.send({ type: 'say', text: script.greet });
          return;
        case 'caller': {
          if (!message.final) return;
          const index = next++;
          const turn = turns[index];
          if (!turn) {
            surprises.push({
              turn: index + 1,
              message: `the caller said "${message.text}" after the script's last turn`,
            });
            return;
          }
          if (turn.hears !== undefined && !message.text.toLowerCase().includes(turn.hears.toLowerCase()))
            surprises.push({
              turn: index + 1,
              message: `turn ${index + 1} expected the caller to say "${turn.hears}", they said "${message.text}"`,
            });
          void play(turn, index);
          return;
        }
        case 'toolResult': {
          const resolve = pendingTools.get(message.id);
          pendingTools.delete(message.id);
          resolve?.({
            ...(message.result !== undefined ? { result: message.result } : {}),
            ...(message.error !== undefined ? { error: message.error } : {}),
          });
          return;
        }
        default:
      }
    });
  };
}
