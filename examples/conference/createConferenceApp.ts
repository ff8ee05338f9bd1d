import { systemClock } from '@ringflow/client';
import { type Application, type ApplicationOptions, createApplication } from '@ringflow/runtime';
import { ConferenceRooms } from './ConferenceRooms.ts';
import { createConferenceMachine } from './conferenceMachine.ts';

/** Options of {@link createConferenceApp}: those of `createApplication`, without the machine. */
export interface ConferenceAppOptions extends Omit<ApplicationOptions, 'call' | 'apps'> {
  /** The application name(s) callers enter with `Stasis(conference,<room>)`; default `conference`. */
  readonly apps?: string | readonly string[];
  /** Played on the bridge each time someone joins; default `sound:beep`. */
  readonly entryTone?: string;
}

/** A running conference service: the runtime application and its open rooms. */
export interface ConferenceApp {
  readonly app: Application;
  readonly rooms: ConferenceRooms;
}

/**
 * A conferencing application: callers dial into a named room (`Stasis(conference,<room>)`), the
 * first one opens it (a mixing bridge) and moderates it; talkers get the video, the moderator
 * presses `#` to give the choice back to the server's talk detection (and again to follow the
 * talkers) and `*` to start or stop recording; the room closes when its last caller leaves.
 *
 * @example
 * const { app } = createConferenceApp({
 *   servers: [{ url: 'http://127.0.0.1:8088/ari', username: 'asterisk', password: 'secret' }],
 * });
 * await app.start();
 */
export function createConferenceApp(options: ConferenceAppOptions): ConferenceApp {
  const { entryTone, apps, ...rest } = options;
  let app: Application | undefined;
  const started = (): Application => {
    if (!app) throw new Error('the conference application is not created yet');
    return app;
  };
  const rooms = new ConferenceRooms({
    createBridge: (bridge) => started().createBridge(bridge),
    clientOf: (server) => started().client(server),
    clock: options.clock ?? systemClock,
    // Read when a room opens: by then the application (and its redacting logger) exists.
    get logger() {
      return started().logger;
    },
    ...(entryTone === undefined ? {} : { entryTone }),
  });
  app = createApplication({ ...rest, apps: apps ?? 'conference', call: createConferenceMachine(rooms) });
  return { app, rooms };
}
