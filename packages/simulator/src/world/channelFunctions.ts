import { reviewAudio } from './audioFlow.ts';
import type { SimChannel } from './SimChannel.ts';
import type { World } from './World.ts';

/** `NAME(args)`: a dialplan function written where a variable name goes. */
export function parseFunctionName(text: string): { name: string; args: string } | undefined {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\((.*)\)$/s.exec(text.trim());
  return m ? { name: m[1]!.toUpperCase(), args: m[2]! } : undefined;
}

function parseCallerId(text: string): { name: string; number: string } {
  const m = /^\s*"?([^"<]*?)"?\s*<([^>]*)>\s*$/.exec(text);
  if (m) return { name: m[1]!.trim(), number: m[2]!.trim() };
  return /^[\d+*#]+$/.test(text.trim())
    ? { name: '', number: text.trim() }
    : { name: text.trim(), number: '' };
}

/** Reads `CALLERID("Name" <1000>)`-style text into its parts. */
export { parseCallerId };

/**
 * Reads a dialplan function on a channel: CALLERID, CONNECTEDLINE, CHANNEL, TALK_DETECT,
 * HOLD_INTERCEPT and GLOBAL (a global variable, empty when unset, as the real server's `GLOBAL()`
 * reads it). Returns undefined for a function the simulator does not know (the real server
 * answers 500 "Unable to read provided function").
 *
 * @example readChannelFunction(world, ch, 'GLOBAL', 'COUNT') // '3' after a global COUNT=3
 */
export function readChannelFunction(
  world: Pick<World, 'globals'>,
  ch: SimChannel,
  name: string,
  args: string,
): string | undefined {
  const arg = args.trim().toLowerCase();
  switch (name) {
    case 'GLOBAL':
      // Variable names keep their case: only the function name is case-insensitive.
      return world.globals.get(args.trim()) ?? '';
    case 'CALLERID':
      if (arg === 'name') return ch.callerName;
      if (arg === 'num' || arg === 'number') return ch.callerNumber;
      if (arg === 'all') return ch.callerName ? `"${ch.callerName}" <${ch.callerNumber}>` : ch.callerNumber;
      return '';
    case 'CONNECTEDLINE':
      if (arg === 'name') return ch.connectedName;
      if (arg === 'num' || arg === 'number') return ch.connectedNumber;
      if (arg === 'all')
        return ch.connectedName ? `"${ch.connectedName}" <${ch.connectedNumber}>` : ch.connectedNumber;
      return '';
    case 'CHANNEL':
      if (arg === 'name') return ch.name;
      if (arg === 'state') return ch.state;
      if (arg === 'language') return ch.language;
      if (arg === 'uniqueid' || arg === 'linkedid') return ch.id;
      if (arg === 'channeltype') return ch.technology;
      if (arg === 'context') return ch.context;
      if (arg === 'exten') return ch.exten;
      return '';
    case 'TALK_DETECT':
      return ch.talkDetect ? '1' : '0';
    case 'HOLD_INTERCEPT':
      return ch.holdIntercept ? '1' : '0';
    default:
      return undefined;
  }
}

/**
 * Writes a dialplan function on a channel, raising the events a real server raises
 * (ChannelCallerId, ChannelConnectedLine). `TALK_DETECT(set)=` turns talk detection on,
 * `HOLD_INTERCEPT(set)=` makes hold raise only the event. `GLOBAL(name)=` sets a global variable,
 * raising the channel-less ChannelVarset of a global set (the real server's `GLOBAL()` sets it
 * with no channel, and the channel sees no ChannelVarset of its own).
 * Returns false for an unknown function.
 */
export function writeChannelFunction(
  world: World,
  ch: SimChannel,
  name: string,
  args: string,
  value: string,
): boolean {
  const arg = args.trim().toLowerCase();
  switch (name) {
    case 'GLOBAL':
      if (args.trim() === '') return false;
      world.setGlobalVar(args.trim(), value);
      return true;
    case 'CALLERID':
    case 'CONNECTEDLINE': {
      const caller = name === 'CALLERID';
      const setName = (v: string) => {
        if (caller) ch.callerName = v;
        else ch.connectedName = v;
      };
      const setNumber = (v: string) => {
        if (caller) ch.callerNumber = v;
        else ch.connectedNumber = v;
      };
      if (arg === 'name') setName(value);
      else if (arg === 'num' || arg === 'number') setNumber(value);
      else if (arg === 'all' || arg === '') {
        const parsed = parseCallerId(value);
        setName(parsed.name);
        setNumber(parsed.number);
      } else return false;
      world.channelChanged(ch);
      return true;
    }
    case 'CHANNEL':
      if (arg === 'language') {
        ch.language = value;
        return true;
      }
      return false;
    case 'TALK_DETECT':
      if (arg === 'set' || arg.startsWith('set,')) {
        ch.talkDetect = true;
        // Talking already under way is detected at once.
        reviewAudio(world, ch);
      } else if (arg === 'remove') {
        ch.talkDetect = false;
        ch.talkDetectedSince = undefined;
      } else return false;
      return true;
    case 'HOLD_INTERCEPT':
      if (arg === 'set') ch.holdIntercept = true;
      else if (arg === 'remove') ch.holdIntercept = false;
      else return false;
      return true;
    default:
      return false;
  }
}
