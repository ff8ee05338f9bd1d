import { post } from './api.ts';
import type { CallView, FarEndView } from './ConsoleStore.ts';

/** A duration as `m:ss` (`h:mm:ss` past the hour). */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const hms = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  return hms[0]
    ? `${hms[0]}:${String(hms[1]).padStart(2, '0')}:${String(hms[2]).padStart(2, '0')}`
    : `${hms[1]}:${String(hms[2]).padStart(2, '0')}`;
}

/** How a call ended, as the runtime said it (`hungUp, by the caller`). */
export function resultOf(call: CallView): string | null {
  return call.ended;
}

/**
 * The calls seen, newest first: each with its flow, the state it is in (or how it ended, in a
 * scenario's words), its duration, and under it the far ends its flow dialled. Picking one selects
 * it (diagram, timeline, save). In `ringflow dev` a far end is answered or rejected while it
 * rings and hung up after; the live view only shows them.
 */
export function CallList(props: {
  readonly calls: readonly CallView[];
  readonly farEndsOf: (id: string) => [string, FarEndView][];
  readonly selected: string | null;
  readonly now: number;
  readonly live: boolean;
  readonly onSelect: (id: string) => void;
  readonly onNotice: (text: string) => void;
}) {
  const act = async (path: 'hangup' | 'answer' | 'reject', call: string) =>
    props.onNotice((await post(path, { call })).error ?? '');
  return (
    <div class="panel calls-panel">
      <h2>
        Calls <span class="count">{props.calls.length}</span>
      </h2>
      {props.calls.length === 0 ? <p class="muted">No call yet{props.live ? '' : ': press Call'}.</p> : null}
      <ul id="calls" aria-label="Calls">
        {props.calls.map((c) => {
          const result = resultOf(c);
          const took = c.startedAt === null ? null : duration((c.endedAt ?? props.now) - c.startedAt);
          const farEnds = props.farEndsOf(c.id);
          const selected = c.id === props.selected;
          return (
            <li key={c.id} class={`call-item${selected ? ' sel' : ''}${c.ended ? ' ended' : ' live'}`}>
              <button
                type="button"
                class={`call${selected ? ' sel' : ''}`}
                aria-pressed={selected}
                data-call={c.id}
                onClick={() => props.onSelect(c.id)}
              >
                <span class="call-id">{c.id}</span>
                <span class="call-time">{took ?? ''}</span>
                <span class="call-flow">{c.flow}</span>
                <span class={`call-state ${c.ended ? 'chip-ended' : 'chip-live'}`}>
                  {c.ended ? (result ?? 'ended') : (c.state ?? '…')}
                </span>
                <span class="sr-only">{c.ended ? ' · ended' : ' · in progress'}</span>
              </button>
              {farEnds.length > 0 ? (
                <ul class="farends" aria-label={`Far ends of ${c.id}`}>
                  {farEnds.map(([id, f]) => (
                    <li class="farend" key={id}>
                      <span class="farend-name" title={id}>
                        {f.name}
                      </span>
                      <span class={`chip ${f.answered ? 'chip-live' : 'chip-ringing'}`}>
                        {f.answered ? 'answered' : 'ringing'}
                      </span>
                      {props.live ? null : f.answered ? (
                        <button type="button" class="small" onClick={() => void act('hangup', id)}>
                          Hang up
                        </button>
                      ) : (
                        <>
                          <button type="button" class="small" onClick={() => void act('answer', id)}>
                            Answer
                          </button>
                          <button type="button" class="small" onClick={() => void act('reject', id)}>
                            Reject
                          </button>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
