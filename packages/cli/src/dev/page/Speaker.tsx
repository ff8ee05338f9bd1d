import { useEffect } from 'preact/hooks';
import type { CallAudio, PlayingPart } from './CallAudio.ts';
import type { CallSound } from './types.ts';

/**
 * Plays the sounds of the selected call's channel (its own and its bridge's) while sound is on
 * (without a sounds folder, its tones and hold music only), holds them while the simulated time is paused, and stops them when the call
 * is no longer selected or the server stops them.
 */
export function useCallSounds(
  audio: CallAudio,
  sounds: ReadonlyMap<string, CallSound>,
  options: {
    readonly selected: string | null;
    readonly on: boolean;
    /** Whether there is a sounds folder: without one, only tones are played. */
    readonly files: boolean;
    readonly paused: boolean;
    readonly version: number;
  },
): void {
  const { selected, on, files, paused, version } = options;
  useEffect(() => {
    const wanted = [...sounds.values()].filter(
      // What the caller hears: their own channel's sounds, their bridge's included (a far end's
      // are its person's); without a sounds folder, what the page makes (tones, hold music).
      (s) => on && s.channel === selected && (files || /^(tone|moh):/.test(s.media)),
    );
    for (const [id] of audio.playing()) if (!wanted.some((s) => s.id === id)) audio.stop(id);
    for (const sound of wanted) audio.play(sound);
  }, [version, selected, on, files]);
  useEffect(() => audio.hold(paused), [paused]);
}

/** The switch that turns the call's sound on or off (its title says where the sounds come from). */
export function Speaker(props: {
  readonly audio: CallAudio;
  readonly on: boolean;
  readonly onToggle: (on: boolean) => void;
  /** Where the sounds come from (the folder), or null when there is none. */
  readonly folder: string | null;
}) {
  return (
    <label
      class="check speaker"
      title={
        props.folder
          ? `Prompts from ${props.folder}`
          : 'Tones only: no sounds folder (ringflow dev --sounds DIR)'
      }
    >
      <input
        type="checkbox"
        id="sound-on"
        checked={props.on}
        onChange={(e) => {
          // The click lets the browser start the audio.
          if (e.currentTarget.checked) void props.audio.audioContext().resume();
          props.onToggle(e.currentTarget.checked);
        }}
      />
      Sound
    </label>
  );
}

/** What the selected call hears, as the page plays it: each prompt's files (with their format), a file the folder does not have, the tones. */
export function NowPlaying({ audio }: { readonly audio: CallAudio }) {
  const playing = [...audio.playing()].flatMap(([id, parts]) => parts.map((p) => ({ id, ...p })));
  return (
    <ul id="now-playing" class="now-playing" aria-label="What the call hears" aria-live="polite">
      {playing.map((p: PlayingPart & { id: string }) => (
        <li key={`${p.id}/${p.name}`} data-file={p.name} data-state={p.state} data-format={p.format}>
          {p.state === 'missing' ? '✕' : p.state === 'loading' ? '…' : '♪'} {p.name}
          {p.format ? <span class="muted"> {p.format}</span> : null}
          {p.state === 'missing' ? <span class="muted"> (no sound file)</span> : null}
        </li>
      ))}
    </ul>
  );
}
