import type { AriGeneralSettings, AriUserConfig } from './ariConfigClass.ts';
import { type DeviceStateValue, DeviceStates } from './DeviceStates.ts';
import { DynamicConfig } from './DynamicConfig.ts';
import { type ConfiguredLogChannel, LogChannels } from './LogChannels.ts';
import { Mailboxes } from './Mailboxes.ts';
import { ModuleRegistry } from './ModuleRegistry.ts';
import type { ModuleSpec } from './ModuleSpec.ts';
import { RecordingStore } from './RecordingStore.ts';
import { SoundCatalogue, type SoundSpec } from './SoundCatalogue.ts';

export interface ServerFacilitiesOptions {
  /** The interface users (also the `res_ari/user` configuration objects). */
  readonly users?: readonly AriUserConfig[];
  readonly ariGeneral?: AriGeneralSettings;
  /** Replaces the stock module list. */
  readonly modules?: readonly ModuleSpec[];
  /** Replaces the configured log channels (`messages.log` and `console`). */
  readonly logChannels?: readonly ConfiguredLogChannel[];
  /** Sounds added to the core set. */
  readonly extraSounds?: readonly SoundSpec[];
  /** Keep stored recordings as files under this directory instead of in memory. */
  readonly recordingsDirectory?: string;
  /** Live state of devices the interface does not control (see `DeviceStates`). */
  readonly deviceStateLookup?: (name: string) => DeviceStateValue | undefined;
}

/** Every server facility, wired to each other. */
export interface ServerFacilities {
  readonly modules: ModuleRegistry;
  readonly logChannels: LogChannels;
  readonly deviceStates: DeviceStates;
  readonly mailboxes: Mailboxes;
  readonly dynamicConfig: DynamicConfig;
  readonly sounds: SoundCatalogue;
  readonly recordings: RecordingStore;
}

/**
 * Builds the facilities of one simulated server and links them as on a real one: mailboxes need
 * `res_mwi_external` and publish `MWI:` device states, the MWI configuration objects are the
 * mailboxes, a `logger` reload resets log channels, `recording:` media are timed from the store.
 *
 * @example
 * const f = createServerFacilities({ users: [{ name: 'demo', password: 'demo' }] });
 * f.deviceStates.onChange((device_state) => raise({ type: 'DeviceStateChanged', device_state }));
 * f.mailboxes.update('1000', '0', '2'); // raises MWI:1000 INUSE
 */
export function createServerFacilities(options: ServerFacilitiesOptions = {}): ServerFacilities {
  const modules = new ModuleRegistry(options.modules ? { modules: options.modules } : {});
  const deviceStates = new DeviceStates(
    options.deviceStateLookup ? { lookup: options.deviceStateLookup } : {},
  );
  const mailboxes = new Mailboxes({ modules, deviceStates });
  const recordings = new RecordingStore(
    options.recordingsDirectory !== undefined ? { directory: options.recordingsDirectory } : {},
  );
  return {
    modules,
    logChannels: new LogChannels({
      modules,
      ...(options.logChannels ? { channels: options.logChannels } : {}),
    }),
    deviceStates,
    mailboxes,
    dynamicConfig: new DynamicConfig({
      users: options.users ?? [],
      ariGeneral: options.ariGeneral ?? {},
      mailboxes,
      modules,
    }),
    sounds: new SoundCatalogue({ recordings, extraSounds: options.extraSounds ?? [] }),
    recordings,
  };
}
