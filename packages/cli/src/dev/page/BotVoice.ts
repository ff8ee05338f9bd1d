import { useEffect, useRef } from 'preact/hooks';
import type { TimelineEntry } from './types.ts';

/**
 * The bot's words of the selected call spoken in the page while sound is on (the browser's speech
 * synthesis: the simulator's bot audio is a stand-in, not speech), from the moment the call is
 * selected: each `bot said` turn as it comes, cut off when the caller talks over the bot, held
 * while the simulated time is paused. Nothing is spoken where the browser has no speech synthesis.
 * A call the page placed is heard from the moment it was placed (`speakFrom`): its first words can
 * come before the server's reply that names the call, the greeting of a quick bot under load.
 */
export function useBotVoice(
  lines: readonly TimelineEntry[],
  options: {
    readonly selected: string | null;
    readonly on: boolean;
    readonly paused: boolean;
    readonly version: number;
    /** Where the feed stood when the page placed the selected call (undefined: selected later). */
    readonly speakFrom?: number | undefined;
  },
): void {
  const { selected, on, paused, version, speakFrom } = options;
  // The lines already heard (or passed over: a call selected later is not replayed).
  const heard = useRef(lines.length);
  const heardCall = useRef(selected);
  const speech = typeof speechSynthesis === 'undefined' ? undefined : speechSynthesis;
  const speakNew = () => {
    // The feed started over (the console restarted): its lines are new.
    heard.current = Math.min(heard.current, lines.length);
    for (; heard.current < lines.length; heard.current++) {
      const line = lines[heard.current]!;
      if (!speech || !on || line.call !== selected || !line.turn) continue;
      if (line.turn.kind === 'bot') speech.speak(new SpeechSynthesisUtterance(line.turn.text));
      if (line.turn.kind === 'interrupted') speech.cancel();
    }
  };
  useEffect(() => {
    speech?.cancel();
    const placedHere = selected !== heardCall.current && speakFrom !== undefined;
    heardCall.current = selected;
    heard.current = placedHere ? speakFrom : lines.length;
    speakNew();
  }, [selected, on]);
  useEffect(speakNew, [version]);
  useEffect(() => {
    if (paused) speech?.pause();
    else speech?.resume();
  }, [paused]);
}
