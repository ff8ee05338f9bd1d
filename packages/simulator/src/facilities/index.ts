/**
 * The server facilities of the simulator: self-contained stores that apply the real server's rules
 * (statuses and messages) and know nothing about channels or HTTP. The simulator core calls them
 * from its REST handlers and turns their change notifications into events.
 */
export { ChangeListeners } from './ChangeListeners.ts';
export { defaultModules } from './defaultModules.ts';
export { type ModuleChange, ModuleRegistry } from './ModuleRegistry.ts';
export type { ModuleSpec } from './ModuleSpec.ts';
export {
  type DeviceStateValue,
  DeviceStates,
  type DeviceStatesOptions,
  settableDeviceStates,
} from './DeviceStates.ts';
export { type ConfiguredLogChannel, LogChannels, type LogChannelsOptions } from './LogChannels.ts';
export { type MailboxChange, type MailboxCounts, Mailboxes, type MailboxesOptions } from './Mailboxes.ts';
export { parseCInt } from './parseCInt.ts';
export { type AriGeneralSettings, type AriUserConfig, ariConfigClass } from './ariConfigClass.ts';
export type { ConfigClass, ConfigField, ConfigObjectType, ConfigStore } from './ConfigClass.ts';
export { ConfigFileStore } from './ConfigFileStore.ts';
export {
  boolField,
  choiceField,
  hiddenField,
  intRangeField,
  isTrueWord,
  stringField,
  uintField,
} from './configFieldKinds.ts';
export { DynamicConfig, type DynamicConfigOptions } from './DynamicConfig.ts';
export { geolocationConfigClass } from './geolocationConfigClass.ts';
export { mwiConfigClass } from './mwiConfigClass.ts';
export { characterFiles, digitFiles, numberFiles } from './sayFiles.ts';
export { defaultSoundDurations } from './defaultSounds.ts';
export {
  type MediaTiming,
  SoundCatalogue,
  type SoundCatalogueOptions,
  type SoundSpec,
} from './SoundCatalogue.ts';
export { type AudioFormat, audioFormats } from './audioFormats.ts';
export { isSafeRecordingName } from './recordingName.ts';
export { type IfExists, RecordingStore, type RecordingStoreOptions } from './RecordingStore.ts';
export {
  createServerFacilities,
  type ServerFacilities,
  type ServerFacilitiesOptions,
} from './createServerFacilities.ts';
