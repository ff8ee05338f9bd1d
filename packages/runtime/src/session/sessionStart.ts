/**
 * How one call session's machine starts: when the call's channel enters the application (its
 * StasisStart, {@link startOnStasisStart}), from a channel listing after an event stream gap
 * ({@link startAdopted}), or from the call's record written by another process
 * ({@link startFromRecord}); and that record, built from the session's parts
 * ({@link recordOfCall}). Starting picks the call's machine, makes the call's handle, and runs
 * the machine in a {@link CallMachine}; a machine that cannot be picked, or fails, ends the
 * session.
 */

import type { StasisStart } from '@ringflow/client';
import type { AnyStateMachine } from 'xstate';
import { RESUMED_EVENT } from '../engine/lowerEffects.ts';
import type { CallRecord } from '../snapshot/CallRecord.ts';
import { CallMachine } from './CallMachine.ts';
import { SessionCallHandle } from './SessionCallHandle.ts';
import type { SessionPhase } from './SessionPhase.ts';
import type { SessionState } from './SessionState.ts';
import { failSession, machineDone } from './sessionEnd.ts';

/** The phases of a running session, shared by every session. */
const RUNNING: SessionPhase = { name: 'running', lateStartExpected: false };
const RUNNING_LATE_START_EXPECTED: SessionPhase = { name: 'running', lateStartExpected: true };

/**
 * A StasisStart of the call's channel arrived: it starts a waiting call, and the repeat of an
 * adopted call's is dropped. True when it did either (the event goes no further).
 */
export function startOnStasisStart(state: SessionState, start: StasisStart): boolean {
  if (state.phase.name === 'waiting') {
    begin(state, start);
    return true;
  }
  if (state.phase.name === 'running' && state.phase.lateStartExpected) {
    state.phase = RUNNING;
    state.log('debug', 'StasisStart of an adopted call arrived late; the call is already running');
    return true;
  }
  return false;
}

/**
 * Starts a call whose channel is in the application but whose StasisStart never arrived (lost in
 * an event stream gap), from a StasisStart made of the server's channel listing. A StasisStart
 * arriving later for the channel is dropped, so the machine starts once.
 */
export function startAdopted(state: SessionState, start: StasisStart): void {
  if (state.phase.name !== 'waiting') return;
  state.adopted = true;
  state.copies?.noteInOwnApp(state.session.channelId);
  state.app ??= start.application;
  begin(state, start);
  // begin() moved the phase on (read again: the check above narrowed it to 'waiting').
  if ((state.phase as SessionPhase).name === 'running') state.phase = RUNNING_LATE_START_EXPECTED;
}

/**
 * Takes the call's parts up from its record (the resources it owned, the digits typed ahead,
 * what its actors had started, its failures) and starts its machine from the record's snapshot.
 * False when the session was not waiting, or ended as it started.
 */
export function startFromRecord(state: SessionState, record: CallRecord): boolean {
  if (state.phase.name !== 'waiting') return false;
  state.app ??= record.app;
  state.startedAt = record.startedAt;
  state.report().restore(record.failures, record.lastFailure);
  for (const { kind, id, cleanup, started, confirmed } of record.owned) {
    state.owned.own(kind, id, cleanup);
    if (started) state.owned.noteStarted(kind, id);
    else if (confirmed) state.owned.noteConfirmed(kind, id);
  }
  for (const digit of record.digits) state.session.digits.push(digit);
  state.session.resumeNotes.restore(record.started);
  state.copies?.noteInOwnApp(state.session.channelId);
  begin(state, record.start, record);
  return !state.ended;
}

/** The channel entered the application (or the call was adopted or restored): start the machine. */
function begin(state: SessionState, start: StasisStart, restored?: CallRecord): void {
  const { session } = state;
  state.phase = RUNNING;
  state.app ??= start.application;
  state.bindApplicationToLog(start.application);
  const handle = new SessionCallHandle(session, start);
  state.handle = handle;
  let definition: AnyStateMachine;
  try {
    definition = state.options.machineFor(start);
  } catch (error) {
    state.log('error', 'could not pick a machine for the call; hanging up', { err: error });
    failSession(state);
    return;
  }
  const recorder = state.recorder;
  const machine = new CallMachine(definition, handle, {
    clock: session.clock,
    logger: (...args) => state.log('debug', 'machine log', { machineLog: args }),
    ...(restored ? { record: restored } : {}),
    onDone: () => machineDone(state),
    onError: (error) => {
      state.log('error', 'call machine failed; hanging up', { err: error });
      failSession(state);
    },
    ...(recorder ? { onStep: () => recorder.changed() } : {}),
  });
  state.machine = machine;
  if (!restored) {
    state.log('info', 'call started', { args: start.args, direction: session.direction });
    machine.start();
    return;
  }
  state.log('info', 'call restored from its record', {
    args: start.args,
    direction: session.direction,
    writtenAt: restored.writtenAt,
    state: machine.actor.getSnapshot().value,
  });
  machine.start();
  session.tell({ type: RESUMED_EVENT });
}

/**
 * The call as plain data (see {@link CallRecord}): what another process needs to take it
 * over. Undefined before the machine started, and once the call has ended.
 */
export function recordOfCall(state: SessionState): CallRecord | undefined {
  const { machine, handle, session } = state;
  if (!machine || !handle || state.ended) return undefined;
  const lastFailure = state.report().failure;
  const started = state.resumeNotes?.persist();
  return {
    version: 1,
    callId: session.id,
    channelId: session.channelId,
    asteriskId: session.server.asteriskId,
    server: session.server.name,
    app: state.app,
    direction: session.direction,
    startedAt: state.startedAt,
    writtenAt: session.clock.now(),
    start: handle.start,
    owned: state.owned.persist(),
    digits: session.digits.peek(),
    ...(started ? { started } : {}),
    failures: state.report().failures,
    ...(lastFailure ? { lastFailure } : {}),
    machine: machine.persisted(),
  };
}
