import type { ActorSystem } from 'xstate';

// biome-ignore lint/suspicious/noExplicitAny: any actor system, whatever its actors
type AnyActorSystem = ActorSystem<any>;
import type { CallHandle } from './CallHandle.ts';

/** The call each running call machine's actor system drives (set by the session that runs it). */
const calls = new WeakMap<AnyActorSystem, CallHandle>();

/**
 * Records that the actors of `system` (a call's machine and everything it invokes or spawns) act
 * on `call`: call actors invoked without `call` in their input take it from here.
 */
export function bindCallToSystem(system: AnyActorSystem, call: CallHandle): void {
  calls.set(system, call);
}

/** The call the actors of `system` act on, if a session runs it (see {@link bindCallToSystem}). */
export function callOfSystem(system: AnyActorSystem): CallHandle | undefined {
  return calls.get(system);
}
