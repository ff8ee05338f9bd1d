import type { Reply, Request } from './ChildLink.ts';

/** What a bench child can be asked; each handler's result goes back to the parent. */
export type Handlers = Readonly<Record<string, (args: never) => unknown>>;

/**
 * The child side of {@link ChildLink}: sends `ready`, then runs each request's handler and
 * answers with its result (or its error message). The `exit` op runs `onExit` and ends the
 * process normally, so `--cpu-prof` writes its profile.
 *
 * @example
 * serveParent({ ping: () => 'pong' }, { url }, async () => server.close());
 */
export function serveParent(handlers: Handlers, ready: unknown, onExit: () => Promise<void>): void {
  const send = (reply: Reply) => process.send?.(reply);
  process.on('message', async (message: Request) => {
    if (message.op === 'exit') {
      try {
        await onExit();
      } finally {
        process.disconnect?.();
        process.exitCode = 0;
        // Whatever is still open (sockets being torn down) must not keep the process alive.
        setTimeout(() => process.exit(0), 2000).unref();
      }
      return;
    }
    const handler = handlers[message.op];
    if (!handler) {
      send({
        id: message.id,
        error: `unknown op '${message.op}'; known: ${Object.keys(handlers).join(', ')}`,
      });
      return;
    }
    try {
      send({ id: message.id, result: await handler(message.args as never) });
    } catch (error) {
      send({
        id: message.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  });
  send({ ready });
}
