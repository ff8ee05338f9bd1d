import type {
  DeviceStates,
  DynamicConfig,
  LogChannels,
  Mailboxes,
  ModuleRegistry,
  RecordingStore,
  SoundCatalogue,
} from '../facilities/index.ts';

/** The self-contained stores behind the server-level resources. */
export interface Facilities {
  readonly modules: ModuleRegistry;
  readonly logChannels: LogChannels;
  readonly dynamicConfig: DynamicConfig;
  readonly deviceStates: DeviceStates;
  readonly mailboxes: Mailboxes;
  readonly sounds: SoundCatalogue;
  readonly recordings: RecordingStore;
}
