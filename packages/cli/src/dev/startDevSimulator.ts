import {
  type Dialplan,
  createSimulator,
  loadDialplanFile,
  readSoundDirectory,
  type Simulator,
  startWireServer,
  type WireServer,
} from '@ringflow/simulator';
import type { CallRecorder } from './CallRecorder.ts';
import { ChannelSounds } from './ChannelSounds.ts';
import type { SoundFolder } from './SoundFolder.ts';
import type { ConsoleFeed } from './ConsoleFeed.ts';
import { feedSimulatorEvents, traceRequests } from './devSimulatorFeed.ts';
import type { SteppedTime } from './SteppedTime.ts';

/** The user the flows of `ringflow dev` connect as (loopback only). */
export const DEV_USER = { username: 'dev', password: 'dev' } as const;

/** The simulated server of `ringflow dev`, served on a loopback port as a real server would be. */
export interface DevSimulator {
  readonly sim: Simulator;
  readonly wire: WireServer;
  readonly dialplan: Dialplan | undefined;
  /** Calls the page placed at an extension, until they end (to tell those no flow took). */
  readonly inDialplan: Set<string>;
}

/**
 * Starts the simulator of `ringflow dev` on the console's stepped time: every phone the flows dial
 * rings until the page answers or rejects it (the endpoints written in the flows and those
 * computed as the call runs alike); its requests and its channels' events go to the feed; its
 * events reach the flows through the gate of `time` (held while paused). `followed` tells whether
 * a flow follows a call (the calls of the dialplan no flow took are ended on the feed). With a
 * sounds folder, its sounds last as long as their files (the page plays them).
 *
 * @example
 * const { sim, wire } = await startDevSimulator({ feed, recorder, time, followed: (id) => calls.has(id) });
 */
export async function startDevSimulator(options: {
  readonly dialplanFile?: string;
  readonly sounds?: SoundFolder;
  readonly feed: ConsoleFeed;
  readonly recorder: CallRecorder;
  readonly time: SteppedTime;
  readonly followed: (id: string) => boolean;
}): Promise<DevSimulator> {
  const { feed, recorder, time } = options;
  const dialplan = options.dialplanFile === undefined ? undefined : loadDialplanFile(options.dialplanFile);
  const sounds = options.sounds ? (await readSoundDirectory(options.sounds.dir)).sounds : [];
  const sim = createSimulator({
    clock: time.clock,
    ...(sounds.length > 0 ? { sounds: { extraSounds: sounds } } : {}),
    users: [{ name: DEV_USER.username, password: DEV_USER.password }],
    ...(dialplan ? { dialplan } : {}),
    unknownEndpoints: 'ring',
    answerOutboundAfterMs: null,
  });
  const heard = new ChannelSounds(feed, recorder);
  const wire = await startWireServer(traceRequests(steppedEvents(sim, time), feed, recorder, heard), {
    users: [DEV_USER],
    host: '127.0.0.1',
    port: 0,
  });
  const inDialplan = new Set<string>();
  feedSimulatorEvents(sim.driver, feed, recorder, { inDialplan, followed: options.followed }, heard);
  return { sim, wire, dialplan, inDialplan };
}

/** The simulator as the flows reach it: its event streams go through the gate of `time`. */
function steppedEvents(sim: Simulator, time: SteppedTime): Simulator {
  return new Proxy(sim, {
    get(target, key) {
      if (key === 'connectEvents')
        return (
          request: Parameters<Simulator['connectEvents']>[0],
          deliver: (e: Record<string, unknown>) => void,
        ) => target.connectEvents(request, time.gate(deliver));
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
