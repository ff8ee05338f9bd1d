import type { CallEnded } from '../session/CallEnded.ts';
import type { ContactOutcome } from './Contact.ts';

/** Hangup causes (Q.850) of a call nobody answered because the line was busy. */
const BUSY = new Set([17]);
/**
 * ... because nobody picked up in time: no user responding (18), no answer (19), or normal
 * clearing (16: a real server ends an originate that rang out its timeout so, with a Dial
 * event's NOANSWER), or no cause at all.
 */
const NO_ANSWER = new Set([16, 18, 19, 0]);

/**
 * The outcome of one campaign call from its end report: never answered (busy, no answer, failed,
 * by the hangup cause), or answered: the outcome the flow's final state gives
 * (`output: { outcome: machine }`), else `answered`.
 *
 * @example contactOutcome({ status: 'unanswered', cause: 17, ... }) // 'busy'
 */
export function contactOutcome(ended: CallEnded): ContactOutcome {
  if (ended.status === 'unanswered') {
    const cause = ended.cause ?? 0;
    if (BUSY.has(cause)) return 'busy';
    if (NO_ANSWER.has(cause)) return 'noAnswer';
    return 'failed';
  }
  // A compiled flow's machine output is its FlowOutput ({ status, output: { outcome } }); the
  // runtime does not know flows, so it reads the two fields by narrowing.
  const said = fieldOf(fieldOf(ended.output, 'output'), 'outcome');
  return typeof said === 'string' && said !== '' ? said : 'answered';
}

function fieldOf(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && name in value ? Reflect.get(value, name) : undefined;
}
