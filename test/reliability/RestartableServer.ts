import type { InProcessServer } from '@ringflow/runtime';
import { createSimulator, type Simulator, type SimulatorOptions } from '@ringflow/simulator';

/**
 * One server address whose simulator can be restarted: `restart()` shuts the running simulator
 * down (every channel gone, every event stream closed), answers 503 while it is down, then puts
 * a fresh simulator behind the same address. The application keeps its transports, as it keeps
 * its URL when a real server restarts.
 *
 * @example
 * const server = new RestartableServer({ clock });
 * createApplication({ servers: [{ restTransport: inProcessRestTransport(server), ... }] });
 * server.stop(); ...; server.start();
 */
export class RestartableServer implements InProcessServer {
  private current: Simulator | undefined;
  /** How many simulators have run behind this address. */
  generation = 0;

  constructor(private readonly options: SimulatorOptions) {
    this.start();
  }

  /** The running simulator; throws while the server is down. */
  get simulator(): Simulator {
    if (!this.current) throw new Error('the server is down: call start() first');
    return this.current;
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  /** Shuts the simulator down: its channels are hung up, its event streams closed. */
  stop(): void {
    this.current?.close();
    this.current = undefined;
  }

  /** Starts a fresh simulator with no channels. */
  start(): void {
    this.current = createSimulator(this.options);
    this.generation++;
  }

  handle: InProcessServer['handle'] = async (request) =>
    this.current
      ? this.current.handle(request)
      : { status: 503, body: { message: 'The server is restarting' } };

  connectEvents: InProcessServer['connectEvents'] = (request, deliver) =>
    this.current
      ? this.current.connectEvents(request, deliver)
      : { status: 503, body: { message: 'The server is restarting' } };
}
