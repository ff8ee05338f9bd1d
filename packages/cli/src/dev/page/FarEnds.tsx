import { post } from './api.ts';
import type { FarEndView } from './ConsoleStore.ts';

/** The far ends the calls' flows dialled: answer or reject them while they ring, hang them up after. */
export function FarEnds(props: {
  readonly farEnds: ReadonlyMap<string, FarEndView>;
  readonly onNotice: (text: string) => void;
}) {
  const act = async (path: string, call: string) => props.onNotice((await post(path, { call })).error ?? '');
  return (
    <div class="softphone">
      <h2>Far ends</h2>
      <div id="farends">
        {[...props.farEnds].map(([id, farEnd]) => (
          <div class="farend" key={id}>
            {farEnd.name} {farEnd.answered ? '(answered)' : '(ringing)'}{' '}
            {farEnd.answered ? (
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
