import type { LogChannel } from '@ringflow/client';
import { SimError } from '../SimError.ts';
import type { ModuleRegistry } from './ModuleRegistry.ts';

/** A channel from the logger configuration file: it survives a logger reload. */
export interface ConfiguredLogChannel {
  /** `messages.log` (a file under the log directory), `/abs/path`, `console` or `syslog.local0`. */
  readonly name: string;
  /** Comma separated levels, as in the configuration file: `notice,warning,error,verbose`. */
  readonly levels: string;
}

export interface LogChannelsOptions {
  /** The configured channels, in listing order. Default: `messages.log` and `console`, as traced. */
  readonly channels?: readonly ConfiguredLogChannel[];
  /** Where relative channel names live. Default `/var/log/asterisk`. */
  readonly logDirectory?: string;
  /** Levels registered by modules at run time (listed after the built-in ones). Default FAX, SECURITY. */
  readonly customLevels?: readonly string[];
  /** When given, reloading the `logger` module reloads the channels (dropping dynamic ones). */
  readonly modules?: ModuleRegistry;
}

/** The built-in levels in the server's order; the `configuration` text lists levels in this order. */
const builtInLevels = ['DEBUG', 'TRACE', 'NOTICE', 'WARNING', 'ERROR', 'VERBOSE', 'DTMF'] as const;

interface Channel {
  readonly filename: string;
  readonly type: 'File' | 'Console' | 'Syslog';
  readonly levels: ReadonlySet<string>;
  readonly dynamic: boolean;
}

/**
 * The server's log channels and the rules of `/asterisk/logging`.
 *
 * Observed on the real server and kept here: a channel is identified by its file path (so
 * `messages.log` and `/var/log/asterisk/messages.log` are the same channel); new channels go to the
 * top of the list; unknown level names are accepted and ignored; only channels added through the
 * interface can be deleted; and rotating reloads the whole logger, which drops every channel added
 * through the interface, even when the channel to rotate was not found.
 *
 * @example
 * const logs = new LogChannels();
 * logs.add('app-debug', 'notice,warning');
 * logs.list()[0]; // { channel: '/var/log/asterisk/app-debug', type: 'File', status: 'Enabled', configuration: 'NOTICE WARNING ' }
 * logs.rotate('messages.log'); // app-debug is gone
 */
export class LogChannels {
  readonly #configured: readonly ConfiguredLogChannel[];
  readonly #logDirectory: string;
  readonly #levels: readonly string[];
  #channels: Channel[] = [];

  constructor(options: LogChannelsOptions = {}) {
    this.#configured = options.channels ?? [
      { name: 'messages.log', levels: 'notice,warning,error,verbose' },
      { name: 'console', levels: 'notice,warning,error,verbose' },
    ];
    this.#logDirectory = (options.logDirectory ?? '/var/log/asterisk').replace(/\/+$/, '');
    this.#levels = [
      ...builtInLevels,
      ...(options.customLevels ?? ['FAX', 'SECURITY']).map((l) => l.toUpperCase()),
    ];
    this.reload();
    options.modules?.onChange(({ name, action }) => {
      if (name === 'logger' && action === 'reloaded') this.reload();
    });
  }

  /** All channels, newest interface-added first (as `GET /asterisk/logging`). */
  list(): LogChannel[] {
    return this.#channels.map((c) => ({
      channel: c.filename,
      type: c.type,
      status: 'Enabled',
      // The server writes each level followed by a space, trailing space included.
      configuration: this.#levels
        .filter((l) => c.levels.has(l))
        .map((l) => `${l} `)
        .join(''),
    }));
  }

  /**
   * Adds a channel (`POST /asterisk/logging/{name}?configuration=...`): 400 without levels, 409 when a
   * channel already writes to that file, 500 when the file is in a subdirectory of the log directory.
   */
  add(name: string, configuration: string | undefined): void {
    if (configuration === undefined || configuration === '') {
      throw new SimError(400, 'Configuration levels are required');
    }
    if (this.#find(name)) throw new SimError(409, 'Log channel already exists');
    // The server opens the file there and then (logger.c `make_logchannel`); a name below a
    // subdirectory of the log directory cannot be opened (the directory has none), and the
    // failure is reported as 500 `Allocation failed` (resource_asterisk.c).
    if (!name.startsWith('/') && name.includes('/')) throw new SimError(500, 'Allocation failed');
    this.#channels.unshift(this.#make(name, configuration, true));
  }

  /** Deletes a channel added through the interface; configured channels answer 404 like unknown ones. */
  delete(name: string): void {
    const channel = this.#find(name);
    if (!channel?.dynamic) throw new SimError(404, 'Log channel does not exist');
    this.#channels = this.#channels.filter((c) => c !== channel);
  }

  /**
   * Rotates a file channel (`PUT .../rotate`). The logger is reloaded in every case, so channels
   * added through the interface disappear; 404 when no file channel has that name.
   */
  rotate(name: string): void {
    const target = this.#filename(name);
    const rotated = this.#channels.some((c) => c.type === 'File' && c.filename === target);
    this.reload();
    if (!rotated) throw new SimError(404, 'Log channel does not exist');
  }

  /** Rebuilds the channels from the configuration, as a logger reload does. */
  reload(): void {
    this.#channels = this.#configured.map((c) => this.#make(c.name, c.levels, false));
  }

  #find(name: string): Channel | undefined {
    const filename = this.#filename(name);
    return this.#channels.find((c) => c.filename === filename);
  }

  /** A channel's identity: its absolute file path (console and syslog channels never match one). */
  #filename(name: string): string {
    return name.startsWith('/') ? name : `${this.#logDirectory}/${name}`;
  }

  #make(name: string, configuration: string, dynamic: boolean): Channel {
    const levels = this.#parseLevels(configuration);
    if (name.toLowerCase() === 'console') return { filename: '', type: 'Console', levels, dynamic };
    if (name.toLowerCase().startsWith('syslog')) return { filename: name, type: 'Syslog', levels, dynamic };
    return { filename: this.#filename(name), type: 'File', levels, dynamic };
  }

  /** Level list as the server reads it: `[format]` prefix ignored, `*` = all, `verbose(3)` = VERBOSE. */
  #parseLevels(configuration: string): Set<string> {
    const body = configuration.replace(/^\s*\[[^\]]*\]/, '');
    const levels = new Set<string>();
    for (const raw of body.split(',')) {
      const word = raw.trim();
      if (word === '*') {
        for (const level of this.#levels) levels.add(level);
      } else if (/^verbose\(\d+\)$/i.test(word)) {
        levels.add('VERBOSE');
      } else {
        const level = this.#levels.find((l) => l === word.toUpperCase());
        if (level) levels.add(level);
      }
    }
    return levels;
  }
}
