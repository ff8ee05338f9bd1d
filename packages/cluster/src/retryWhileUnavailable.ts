/**
 * True when NATS answered "not now" rather than "no": a request that timed out (the stream's
 * leader died with it unanswered, or no leader is elected yet), nobody listening on the stream's
 * subjects (503, "no responders": a leader election in a NATS cluster, a node restarting), or
 * JetStream itself temporarily unavailable (10008, its meta leader being elected). A refusal (a
 * wrong revision, a missing stream, a permission) is not one.
 */
export function isNatsUnavailable(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown; status?: unknown; cause?: unknown } | null;
  if (!e) return false;
  switch (e.name) {
    case 'TimeoutError':
    case 'NoResponders':
    case 'NoRespondersError':
    case 'JetStreamNotEnabled': // the JetStream client's name for a 503 to a request
      return true;
    case 'RequestError': // a request's failure: its cause tells which
      return (
        isNatsUnavailable(e.cause) || (e as { isNoResponders?: () => boolean }).isNoResponders?.() === true
      );
    case 'JetStreamApiError':
      return e.code === JETSTREAM_UNAVAILABLE || e.status === 503;
    default:
      return false;
  }
}

/** JetStream's "JetStream system temporarily unavailable". */
const JETSTREAM_UNAVAILABLE = 10008;

/**
 * Runs `work` again, with growing pauses (100 ms to 1 s), for as long as it fails with
 * {@link isNatsUnavailable} and `boundMs` has not passed; any other failure, or the last one,
 * is thrown. Only for work that is safe to repeat: the store's writes name the revision they
 * replace, so a write that landed although its answer was lost is refused when repeated (and
 * recognised as this process's own), never applied twice.
 *
 * @example
 * const revision = await retryWhileUnavailable(() => kv.update(key, value, revision), 15_000);
 */
export async function retryWhileUnavailable<T>(work: () => Promise<T>, boundMs: number): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (let pause = 100; ; pause = Math.min(pause * 2, 1_000)) {
    try {
      return await work();
    } catch (error) {
      if (!isNatsUnavailable(error) || Date.now() + pause > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
