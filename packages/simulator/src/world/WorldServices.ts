import type { DeviceState } from '@ringflow/client';
import type { Dialplan } from '../dialplan/Dialplan.ts';
import type { IfExists, MediaTiming } from '../facilities/index.ts';

/** What the rules need of the sound catalogue: lengths of sounds and of any media URI. */
export interface SoundTiming {
  durationOf(id: string, language?: string): number | undefined;
  mediaTiming(uri: string, language?: string): MediaTiming;
}

/** What the rules need of the stored-recordings store. */
export interface RecordingSink {
  exists(name: string): boolean;
  /** The checks before a live recording starts (format 422, name 500, taken name 409). */
  checkNewRecording(name: string | undefined, format: string | undefined, ifExists?: IfExists): void;
  /** Stores a finished recording of `durationMs` of audio. */
  write(name: string, format: string, durationMs: number, options?: { readonly append?: boolean }): unknown;
}

/** Outbound calls to simulated endpoints: how their far end behaves. */
export interface FarEndPolicy {
  /** Milliseconds after which an outbound call to an endpoint is answered; undefined: ring until the driver acts. */
  readonly answerAfterMs: number | undefined;
}

/** The collaborators the rules use, bundled so the World has one place to find them. */
export interface WorldServices {
  readonly dialplan: Dialplan;
  readonly sounds: SoundTiming;
  readonly recordings: RecordingSink;
  readonly farEnd: FarEndPolicy;
  /** Codec names accepted by originate `formats`. */
  readonly formats: ReadonlySet<string>;
  /** Reports the state of a device derived from channels (DeviceStateChanged on a change). */
  readonly reportDevice: (name: string, state: DeviceState['state']) => void;
  /** Tells the driver about things leaving the server (outbound text messages, DTMF to a far end). */
  readonly outbound: (kind: string, detail: Readonly<Record<string, unknown>>) => void;
}
