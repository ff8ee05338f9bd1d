import type { Dialplan } from '../dialplan/Dialplan.ts';

/** How long a sound plays, by name and language; undefined when the sound does not exist. */
export interface SoundDurations {
  durationMs(sound: string, language: string): number | undefined;
}

/** What the rules need of the stored-recordings store. */
export interface RecordingSink {
  exists(name: string): boolean;
  /** Stores a finished recording of `durationMs` of audio (appending when asked). */
  save(name: string, format: string, durationMs: number, append: boolean): void;
  /** Length of a stored recording (for `recording:` playback), undefined when absent. */
  durationMs(name: string): number | undefined;
}

/** Outbound calls to simulated endpoints: how their far end behaves. */
export interface FarEndPolicy {
  /** Milliseconds after which an outbound call to an endpoint is answered; undefined: ring until the driver acts. */
  readonly answerAfterMs: number | undefined;
}

/** The collaborators the rules use, bundled so the World has one place to find them. */
export interface WorldServices {
  readonly dialplan: Dialplan;
  readonly sounds: SoundDurations;
  readonly recordings: RecordingSink;
  readonly farEnd: FarEndPolicy;
  /** Known media formats (`wav`, `ulaw`...), for record and originate `formats`. */
  readonly formats: ReadonlySet<string>;
  /** Tells the driver about things leaving the server (outbound text messages, DTMF to a far end). */
  readonly outbound: (kind: string, detail: Readonly<Record<string, unknown>>) => void;
}
