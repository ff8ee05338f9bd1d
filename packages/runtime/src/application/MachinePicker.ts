import type { StasisStart } from '@ringflow/client';
import type { AnyStateMachine } from 'xstate';
import type { ApplicationOptions } from './ApplicationOptions.ts';

/**
 * Which machine a call runs: the application's `call` option (one machine, or a function of the
 * call's `CallInfo`), or a machine given for one originated call. Pickers are shared by the calls
 * of one server and direction (two closures per call were a visible share of the memory per call).
 */
export class MachinePicker {
  readonly #call: ApplicationOptions['call'];
  readonly #appOf: (name: string) => string | undefined;
  readonly #shared = new Map<string, (start: StasisStart) => AnyStateMachine>();

  /** `appOf` names the application a server's application name belongs to. */
  constructor(call: ApplicationOptions['call'], appOf: (name: string) => string | undefined) {
    this.#call = call;
    this.#appOf = appOf;
  }

  /** The picker for a call on `server` going `direction`; `machine` for a call of its own. */
  for(
    server: string,
    direction: 'inbound' | 'outbound',
    machine?: AnyStateMachine,
  ): (start: StasisStart) => AnyStateMachine {
    if (machine) return () => machine;
    const key = `${server}\u0000${direction}`;
    let shared = this.#shared.get(key);
    if (!shared) {
      const call = this.#call;
      shared =
        typeof call === 'function'
          ? (start) =>
              call({
                app: this.#appOf(start.application) ?? start.application,
                args: start.args ?? [],
                direction,
                server,
                start,
              })
          : () => call;
      this.#shared.set(key, shared);
    }
    return shared;
  }
}
