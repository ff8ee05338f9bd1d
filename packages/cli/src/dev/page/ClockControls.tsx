import { useEffect, useState } from 'preact/hooks';
import { post } from './api.ts';
import type { ClockReply } from '../consoleRequests.ts';
import type { ClockState } from './types.ts';

/** The keys that pause or resume (P) and step (N), away from the fields and the dial pad's digits. */
const PAUSE_KEY = 'p';
const STEP_KEY = 'n';

const timeOf = (at: number) => new Date(at).toISOString().slice(11, 23);

/** Whether a key typed in `target` is text for it (a field), not a shortcut of the page. */
function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (/^(INPUT|SELECT|TEXTAREA)$/.test(element.tagName) || element.isContentEditable);
}

/**
 * Pause, step and resume the simulated time of `ringflow dev` (the simulator's and the flows'):
 * paused, time stands still and the server's events wait; each step gives the flows one event (or,
 * when none waits, moves time to the next timer). From the keyboard: P pauses or resumes, N steps.
 * Shows the simulated time, and while paused how many events wait.
 */
export function ClockControls(props: {
  readonly clock: ClockState | null;
  /** The simulated time now (it runs between the feed's messages). */
  readonly now: number;
  readonly onNotice: (text: string) => void;
}) {
  const { clock } = props;
  const paused = clock?.paused ?? false;
  // What the last step did (an event given to the flows, or time moved to a timer).
  const [last, setLast] = useState('');
  const act = async (action: 'pause' | 'step' | 'resume') => {
    const reply = await post<ClockReply>('clock', { action });
    props.onNotice(reply.error ?? '');
    const step = reply.step;
    if (action !== 'step') setLast('');
    else if (step?.kind === 'event') setLast(`gave ${step.event}`);
    else if (step?.kind === 'timer') setLast(`timer at ${timeOf(step.at)}`);
    else setLast('nothing to do');
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      const key = e.key.toLowerCase();
      if (key === PAUSE_KEY) void act(paused ? 'resume' : 'pause');
      else if (key === STEP_KEY && paused) void act('step');
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [paused]);
  return (
    <fieldset class={`clock${paused ? ' paused' : ''}`}>
      <legend class="sr-only">Simulated time</legend>
      <span class="clock-time" title="The simulated time (the simulator's and the flows')">
        {timeOf(props.now)}
      </span>
      {paused ? (
        <span class="clock-waiting" id="clock-waiting" role="status">
          {`${last ? `${last} · ` : ''}${clock?.waiting ?? 0} waiting`}
        </span>
      ) : null}
      <button
        type="button"
        id="clock-pause"
        aria-pressed={paused}
        aria-keyshortcuts="P"
        title={paused ? 'Resume time (P)' : 'Pause time: events wait, step them one by one (P)'}
        onClick={() => void act(paused ? 'resume' : 'pause')}
      >
        {paused ? '▶ Resume' : 'Pause'}
      </button>
      <button
        type="button"
        id="clock-step"
        aria-keyshortcuts="N"
        title="Give the flows the next event, or move time to the next timer (N)"
        disabled={!paused}
        onClick={() => void act('step')}
      >
        Step ▸
      </button>
    </fieldset>
  );
}
