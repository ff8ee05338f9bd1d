import type { Clock } from '@ringflow/client';
import type { Flow } from '@ringflow/dsl';
import { type Application, createApplication } from '@ringflow/runtime';
import { pino } from 'pino';
import type { CallRecorder } from './CallRecorder.ts';
import type { ConsoleFeed } from './ConsoleFeed.ts';
import type { DevFlows } from './devFlows.ts';
import { DEV_USER } from './startDevSimulator.ts';
import { type WatchedCall, watchCalls } from './watchCalls.ts';

/** What the console reads of a call's channel as it entered its flow. */
interface StartChannel {
  readonly id: string;
  readonly caller?: { readonly number?: string };
  readonly dialplan?: { readonly exten?: string };
  readonly language?: string;
}

/** The flow version a call entered, and how it entered, until its session is followed. */
interface CallEntry {
  readonly file: string;
  readonly version: Flow;
  readonly start: { readonly channel: StartChannel; readonly args?: readonly string[] };
}

/**
 * Runs the flows of `ringflow dev` on its simulated server (`url`), one application per flow,
 * on the console's clock, and follows every call on the feed (see watchCalls). Each call runs the
 * version of its flow current when it entered. A call the page did not place (`ringflow call` on
 * the simulator's port, a call through the dialplan) is recorded from the moment a flow takes it.
 *
 * @example
 * const { app, watched } = await startDevApplication({ url: wire.url, flows, feed, recorder, clock });
 */
export async function startDevApplication(options: {
  readonly url: string;
  readonly flows: DevFlows;
  readonly feed: ConsoleFeed;
  readonly recorder: CallRecorder;
  readonly clock: Clock;
  /** Told each call the console no longer keeps (besides the recorder). */
  readonly forgotten?: (id: string) => void;
}): Promise<{ readonly app: Application; readonly watched: Map<string, WatchedCall> }> {
  const { flows, feed, recorder, clock } = options;
  const entries = new Map<string, CallEntry>();
  const app = createApplication({
    servers: [{ url: options.url, ...DEV_USER }],
    apps: [...flows.byName.keys()],
    call: (info) => {
      const loaded = flows.byName.get(info.app);
      if (!loaded) throw new Error(`no flow for application ${info.app}`);
      entries.set(info.start.channel.id, { file: loaded.file, version: loaded.flow, start: info.start });
      return loaded.machine;
    },
    clock,
    logger: pino({ level: 'silent' }),
  });
  await app.start();
  const watched = watchCalls(app.calls$, feed, (session) => entries.get(session.channelId)?.version, {
    now: () => clock.now(),
    onForgotten: (id) => {
      recorder.forget(id);
      options.forgotten?.(id);
    },
    endOf: (call) => recorder.record(call.id, call)?.end,
    onCall: (call) => {
      const entry = entries.get(call.id);
      entries.delete(call.id);
      if (!entry || recorder.has(call.id)) return;
      const channel = entry.start.channel;
      recorder.placed(call.id, {
        flow: call.flow,
        flowFile: entry.file,
        caller: channel?.caller?.number ?? '',
        ...(channel?.dialplan?.exten ? { extension: channel.dialplan.exten } : {}),
        ...(channel?.language ? { language: channel.language } : {}),
        ...(entry.start.args ? { args: entry.start.args } : {}),
      });
    },
  });
  return { app, watched };
}
