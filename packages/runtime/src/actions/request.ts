import type { OperationId, ParamsOf, ResultOf } from '../call/OperationId.ts';
import { callActor, type WithCall } from './callActor.ts';

/** Input of the {@link request} actor for one operation. */
export interface OperationRequestInput<Op extends OperationId> extends WithCall {
  /** `'resource.name'` of any operation: `'bridges.addChannel'`, `'mailboxes.update'`. */
  readonly operation: Op;
  readonly params: ParamsOf<Op>;
  readonly timeoutMs?: number;
}

/**
 * Input of the {@link request} actor: one member per operation, so `params` is checked against
 * the operation named (a single generic would intersect every operation's parameters).
 */
export type RequestInput<Op extends OperationId = OperationId> = {
  [O in Op]: OperationRequestInput<O>;
}[Op];

/**
 * The generic building block: sends any operation of the interface on the call's server. The
 * output is the operation's result (`onDone`: `event.output`); a failure is an error event
 * (`onError`: `event.error`, an `HttpError` with `status`), except that a 404 on the call's own
 * channel is a `call.gone` event.
 *
 * @example
 * invoke: {
 *   src: 'request',
 *   input: ({ context }) => ({
 *     call: context.call, operation: 'deviceStates.update',
 *     params: { deviceName: 'Stasis:desk', deviceState: 'BUSY' },
 *   }),
 *   onDone: 'next',
 * }
 */
export const request = callActor(async (input: RequestInput, signal): Promise<ResultOf<OperationId>> => {
  // `operation` is any operation here, so its parameter type cannot be named; the client checks
  // them against the interface description before sending.
  return input.call.request(input.operation, input.params as never, {
    signal,
    ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
  });
});
