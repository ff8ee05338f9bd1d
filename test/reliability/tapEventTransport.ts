import type { EventTransport } from '@ringflow/client';

/**
 * Wraps an event transport and shows every frame it hands to the stream, so a test knows which
 * events the application really received (events sent while the connection was down are lost,
 * as on a real socket).
 *
 * @example
 * const tapped = tapEventTransport(inProcessEventTransport(sim), (frame) => received.push(frame));
 */
export function tapEventTransport(
  inner: EventTransport,
  onFrame: (frame: Record<string, unknown>) => void,
): EventTransport {
  return {
    connect: (request, handlers) =>
      inner.connect(request, {
        ...handlers,
        message: (frame) => {
          const parsed = typeof frame === 'string' ? safeParse(frame) : frame;
          if (parsed && typeof parsed === 'object') onFrame(parsed as Record<string, unknown>);
          handlers.message(frame);
        },
      }),
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
