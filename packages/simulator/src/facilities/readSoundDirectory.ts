import { open, readdir } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type { FormatLangPair } from '@ringflow/client';
import type { SoundSpec } from './SoundCatalogue.ts';

/**
 * Bytes per second of the raw formats a server plays from files (8 kHz unless named otherwise),
 * keyed by file extension as Asterisk names them.
 */
const RAW_BYTES_PER_SECOND: Readonly<Record<string, { format: string; bytesPerSecond: number }>> = {
  ulaw: { format: 'ulaw', bytesPerSecond: 8000 },
  ul: { format: 'ulaw', bytesPerSecond: 8000 },
  alaw: { format: 'alaw', bytesPerSecond: 8000 },
  al: { format: 'alaw', bytesPerSecond: 8000 },
  sln: { format: 'slin', bytesPerSecond: 16000 },
  slin: { format: 'slin', bytesPerSecond: 16000 },
  raw: { format: 'slin', bytesPerSecond: 16000 },
  sln16: { format: 'slin16', bytesPerSecond: 32000 },
  g722: { format: 'g722', bytesPerSecond: 8000 },
  g729: { format: 'g729', bytesPerSecond: 1000 },
};

/** GSM 06.10 as Asterisk stores it: 33-byte frames of 20 ms. */
const GSM_FRAME_BYTES = 33;
const GSM_FRAME_MS = 20;

/** A language folder of a sounds directory: `en`, `fr`, `en_US`, `en_US_f_Allison`. */
const LANGUAGE_FOLDER = /^[a-z]{2,3}(_[A-Za-z0-9]+)*$/;

/** What reading a sounds directory found: the sounds, and the files it could not use, with why. */
export interface SoundDirectory {
  readonly sounds: SoundSpec[];
  readonly skipped: readonly { readonly file: string; readonly reason: string }[];
}

/**
 * Reads the audio files under `dir` into sounds for the simulator's catalogue, laid out as a
 * server's sounds directory: `<dir>/<language>/<name>.<format>` (`en/acme/welcome.gsm` is
 * `sound:acme/welcome` in `en`), and files outside a language folder exist in `defaultLanguage`.
 * Durations come from the files: WAV from its header (data size / byte rate), GSM from its
 * 33-byte frames of 20 ms, and the raw formats (ulaw, alaw, slin, sln16, g722, g729) from their
 * byte rates. Other files are skipped and listed with the reason.
 *
 * @example
 * const { sounds } = await readSoundDirectory('prompts');
 * createSimulator({ sounds: { extraSounds: sounds } });
 */
export async function readSoundDirectory(dir: string, defaultLanguage = 'en'): Promise<SoundDirectory> {
  const found = new Map<string, { durationMs: number; formats: FormatLangPair[] }>();
  const skipped: { file: string; reason: string }[] = [];
  for (const file of await listFiles(dir)) {
    const path = relative(dir, file).split(sep);
    const language = path.length > 1 && LANGUAGE_FOLDER.test(path[0]!) ? path[0]! : defaultLanguage;
    const inside = language === path[0] && path.length > 1 ? path.slice(1) : path;
    const extension = extname(file).slice(1).toLowerCase();
    const name = inside.join('/').slice(0, -(extension.length + 1));
    let audio: { format: string; durationMs: number } | string;
    try {
      audio = await measure(file, extension);
    } catch (error) {
      audio = `cannot read it: ${(error as Error).message}`;
    }
    if (typeof audio === 'string') {
      skipped.push({ file, reason: audio });
      continue;
    }
    const known = found.get(name) ?? { durationMs: audio.durationMs, formats: [] };
    known.formats.push({ language, format: audio.format });
    found.set(name, known);
  }
  const sounds = [...found]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, { durationMs, formats }]) => ({ id, durationMs, formats }));
  return { sounds, skipped };
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out.sort();
}

/** The format and duration of one file, or why it cannot be used. */
async function measure(
  file: string,
  extension: string,
): Promise<{ format: string; durationMs: number } | string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (extension === 'wav' || extension === 'wav49') {
      const header = Buffer.alloc(Math.min(size, 4096));
      await handle.read(header, 0, header.length, 0);
      const durationMs = wavDurationMs(header, size);
      return durationMs === undefined
        ? 'not a WAV file this reader understands (RIFF/WAVE with fmt and data chunks)'
        : { format: 'wav', durationMs };
    }
    if (extension === 'gsm')
      return { format: 'gsm', durationMs: Math.round(size / GSM_FRAME_BYTES) * GSM_FRAME_MS };
    const raw = RAW_BYTES_PER_SECOND[extension];
    if (raw) return { format: raw.format, durationMs: Math.round((size / raw.bytesPerSecond) * 1000) };
    return `.${extension} is not an audio format the reader knows (wav, gsm, ulaw, alaw, slin, sln16, g722, g729)`;
  } finally {
    await handle.close();
  }
}

/**
 * The duration of a RIFF/WAVE file from its header: the data chunk's size over the fmt chunk's
 * byte rate. A data chunk whose size runs past the file (a recording still being written, or a
 * header written before the data) counts what the file holds.
 */
export function wavDurationMs(header: Buffer, fileSize: number): number | undefined {
  if (
    header.length < 12 ||
    header.toString('ascii', 0, 4) !== 'RIFF' ||
    header.toString('ascii', 8, 12) !== 'WAVE'
  )
    return undefined;
  let byteRate: number | undefined;
  for (let at = 12; at + 8 <= header.length; ) {
    const id = header.toString('ascii', at, at + 4);
    const length = header.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 20 <= header.length) byteRate = header.readUInt32LE(at + 16);
    if (id === 'data') {
      if (!byteRate) return undefined;
      const bytes = Math.min(length, fileSize - (at + 8));
      return Math.round((bytes / byteRate) * 1000);
    }
    at += 8 + length + (length % 2);
  }
  return undefined;
}
