import { post } from './api.ts';
import type { FarEndView } from './ConsoleStore.ts';

/**
 * The far ends the calls' flows dialled, ringing or answered. In `ringflow dev` the page answers
 * or rejects them while they ring and hangs them up after; the live view only shows them.
 */
export function FarEnds(props: {
  readonly farEnds: ReadonlyMap<string, FarEndView>;
  readonly live: boolean;
  readonly onNotice: (text: string) => void;
}) {
  const act = async (path: string, call: string) => props.onNotice((await post(path, { call })).error ?? '');
  return (
    <div class="far-ends">
      <h2>Far ends</h2>
      <div id="farends">
        {[...props.farEnds].map(([id, farEnd]) => (
          <div class="farend" key={id}>
            {farEnd.name} {farEnd.answered ? '(answered)' : '(ringing)'}{' '}
            {props.live ? null : farEnd.answered ? (
              <button type="button" onClick={() => void act('hangup', id)}>
                Hang up
              </button>
            ) : (
              <>
                <button type="button" onClick={() => void act('answer', id)}>
                  Answer
                </button>
                <button type="button" onClick={() => void act('reject', id)}>
                  Reject
                </button>
              </>
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
