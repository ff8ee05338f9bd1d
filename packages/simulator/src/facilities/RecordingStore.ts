import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { StoredRecording } from '@ringflow/client';
import { SimError } from '../SimError.ts';
import { type AudioFormat, audioFormats } from './audioFormats.ts';
import { isSafeRecordingName } from './recordingName.ts';

/** What to do when a recording is made under a name that is already stored. */
export type IfExists = 'fail' | 'overwrite' | 'append';

export interface RecordingStoreOptions {
  /**
   * Keep recordings as real files under this directory (created when missing; files already there
   * are listed). Default: in memory, the bytes made on demand.
   */
  readonly directory?: string;
}

interface Entry {
  readonly format: string;
  readonly durationMs: number;
}

/**
 * Stored recordings (`/recordings/stored`), with the real server's messages, and the files live
 * recordings leave behind.
 *
 * Names may hold a relative directory (`sub/t2`) but can never leave the recordings directory:
 * `../x`, absolute paths, backslashes, control characters and percent-encoded traversal are
 * refused with the error of the operation (record: 500 `Error parsing request`; copy destination:
 * 400 `Invalid destination recording name`; reading: 404 `Recording not found`). On disk, each
 * directory on the way is checked to be a real directory (no symbolic link) and files are opened
 * without following links.
 *
 * Files are silence of the recorded length in the recorded format: `wav` is a RIFF/WAVE file,
 * 8 kHz 16-bit mono, byte for byte like the real server's header.
 *
 * @example
 * const store = new RecordingStore();
 * store.checkNewRecording('greeting', 'wav', 'fail'); // before a live recording starts
 * store.write('greeting', 'wav', 2880);                // when it finishes
 * store.getFile('greeting').data.length;               // 46124
 */
export class RecordingStore {
  readonly #entries = new Map<string, Entry>();
  readonly #root: string | undefined;

  constructor(options: RecordingStoreOptions = {}) {
    if (options.directory !== undefined) {
      mkdirSync(options.directory, { recursive: true });
      this.#root = realpathSync(options.directory);
      this.#indexDirectory(this.#root);
    }
  }

  /** The directory holding the files, or undefined when recordings live in memory. */
  get directory(): string | undefined {
    return this.#root;
  }

  /** All stored recordings, sorted by name (`GET /recordings/stored`). */
  list(): StoredRecording[] {
    return [...this.#entries.keys()].sort(byCodePoint).map((name) => this.get(name));
  }

  /** One recording: 404 `Recording not found`. */
  get(name: string): StoredRecording {
    return { name, format: this.#entry(name).format };
  }

  /** Whether a recording of that name is stored (the `ifExists` check of a new recording). */
  exists(name: string): boolean {
    return this.#entries.has(name);
  }

  /** The length of a stored recording in milliseconds (for `recording:` playbacks), or undefined. */
  durationOf(name: string): number | undefined {
    return this.#entries.get(name)?.durationMs;
  }

  /**
   * The checks of `POST /channels/{id}/record` that concern the store, in the server's order:
   * 422 for a format it cannot write, 500 `Error parsing request` for a missing or escaping name,
   * 409 when the name is taken and `ifExists` is `fail`.
   */
  checkNewRecording(name: string | undefined, format: string | undefined, ifExists: IfExists = 'fail'): void {
    formatOf(format);
    if (!isSafeRecordingName(name)) throw new SimError(500, 'Error parsing request');
    if (ifExists === 'fail' && this.exists(name)) {
      throw new SimError(409, `Recording '${name}' already exists and can not be overwritten`);
    }
  }

  /**
   * Stores a finished recording of `durationMs` milliseconds. `ifExists` (default `overwrite`)
   * is the record request's: with `append` and the same format the new audio goes after the stored
   * one (a different format replaces it, since the simulator keeps one file per name); `fail` is
   * checked again. `append: true` is a shorthand for `ifExists: 'append'`.
   */
  write(
    name: string,
    format: string,
    durationMs: number,
    options: { readonly ifExists?: IfExists; readonly append?: boolean } = {},
  ): StoredRecording {
    const ifExists = options.append ? 'append' : (options.ifExists ?? 'overwrite');
    this.checkNewRecording(name, format, ifExists);
    if (!(durationMs >= 0) || !Number.isFinite(durationMs)) {
      throw new Error(
        `RecordingStore.write: durationMs must be a finite number of 0 or more, got ${durationMs}`,
      );
    }
    const previous = this.#entries.get(name);
    const total =
      ifExists === 'append' && previous?.format === format ? previous.durationMs + durationMs : durationMs;
    this.#store(name, { format, durationMs: total }, formatOf(format).encode(total));
    return { name, format };
  }

  /** Deletes a stored recording: 404 `Recording not found`. */
  delete(name: string): void {
    const entry = this.#entry(name);
    this.#entries.delete(name);
    if (this.#root) removeFile(this.#pathOf(name, entry.format));
  }

  /**
   * Copies a recording (`POST /recordings/stored/{name}/copy`): 404 for an unknown source, 400 for a
   * missing or escaping destination, 409 when the destination exists.
   */
  copy(source: string, destination: string | undefined): StoredRecording {
    const entry = this.#entry(source);
    if (!isSafeRecordingName(destination)) throw new SimError(400, 'Invalid destination recording name');
    if (this.exists(destination)) {
      throw new SimError(409, 'A recording with the same name already exists on the system');
    }
    this.#store(destination, entry, this.#bytesOf(source, entry));
    return { name: destination, format: entry.format };
  }

  /** The recording's file (`GET /recordings/stored/{name}/file`), with its content type. */
  getFile(name: string): { contentType: string; data: Uint8Array } {
    const entry = this.#entry(name);
    return { contentType: `audio/${entry.format}`, data: this.#bytesOf(name, entry) };
  }

  #entry(name: string): Entry {
    const entry = this.#entries.get(name);
    if (!entry) throw new SimError(404, 'Recording not found');
    return entry;
  }

  #bytesOf(name: string, entry: Entry): Uint8Array {
    if (!this.#root) return formatOf(entry.format).encode(entry.durationMs);
    let fd: number;
    try {
      fd = openSync(this.#pathOf(name, entry.format), constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if (!isMissingFile(error)) throw error;
      // Removed behind the store's back: the server would not find it either.
      this.#entries.delete(name);
      throw new SimError(404, 'Recording not found');
    }
    try {
      return readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  #store(name: string, entry: Entry, bytes: Uint8Array): void {
    if (this.#root) {
      const previous = this.#entries.get(name);
      if (previous && previous.format !== entry.format) removeFile(this.#pathOf(name, previous.format));
      this.#writeFile(name, entry.format, bytes);
    }
    this.#entries.set(name, entry);
  }

  /** Writes under the root only: real directories all the way down, no link followed. */
  #writeFile(name: string, format: string, bytes: Uint8Array): void {
    const root = this.#root as string;
    const segments = name.split('/');
    let directory = root;
    for (const segment of segments.slice(0, -1)) {
      directory = join(directory, segment);
      let stats: ReturnType<typeof lstatSync> | undefined;
      try {
        stats = lstatSync(directory);
      } catch {
        mkdirSync(directory);
        stats = lstatSync(directory);
      }
      if (!stats.isDirectory()) throw new SimError(500, 'Internal Server Error');
    }
    if (!isInside(root, realpathSync(directory))) throw new SimError(500, 'Internal Server Error');
    const fd = openSync(
      this.#pathOf(name, format),
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o644,
    );
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } finally {
      closeSync(fd);
    }
  }

  #pathOf(name: string, format: string): string {
    const path = `${join(this.#root as string, ...name.split('/'))}.${format}`;
    // Names are checked before they get here; this guards against a future caller that forgets.
    if (!isSafeRecordingName(name) || !isInside(this.#root as string, path)) {
      throw new SimError(500, 'Internal Server Error');
    }
    return path;
  }

  /** Lists the recordings a previous run left in the directory (links are not followed). */
  #indexDirectory(directory: string): void {
    const entries = readdirSync(directory, { withFileTypes: true }).sort((a, b) =>
      byCodePoint(a.name, b.name),
    );
    for (const dirent of entries) {
      const path = join(directory, dirent.name);
      if (dirent.isDirectory()) {
        this.#indexDirectory(path);
        continue;
      }
      if (!dirent.isFile()) continue;
      const dot = dirent.name.lastIndexOf('.');
      const format = dot > 0 ? audioFormats.get(dirent.name.slice(dot + 1)) : undefined;
      if (!format) continue;
      const relativePath = relative(this.#root as string, path);
      const name = relativePath.slice(0, relativePath.length - (dirent.name.length - dot));
      if (!isSafeRecordingName(name) || this.#entries.has(name)) continue;
      this.#entries.set(name, { format: format.name, durationMs: format.durationOf(statSync(path).size) });
    }
  }
}

function formatOf(format: string | undefined): AudioFormat {
  const found = format === undefined ? undefined : audioFormats.get(format);
  if (!found) throw new SimError(422, 'specified format is unknown on this system');
  return found;
}

function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** Deletes a file that may already be gone. */
function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isMissingFile(error)) throw error;
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel.split(sep)[0] !== '..' && !isAbsolute(rel));
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
