import type { ResourceName } from './spec.ts';

/**
 * Handles bind the identifying path parameters of a resource, so that
 * `client.channel(id).answer()` calls `channels.answer` with `channelId: id`.
 * Every operation of `resource` whose path contains all of `bind` is available on the handle.
 */
export interface HandleSpec {
  readonly resource: ResourceName;
  readonly bind: readonly string[];
}

export const handleSpecs = {
  channel: { resource: 'channels', bind: ['channelId'] },
  bridge: { resource: 'bridges', bind: ['bridgeId'] },
  playback: { resource: 'playbacks', bind: ['playbackId'] },
  recording: { resource: 'recordings', bind: ['recordingName'] },
  endpoint: { resource: 'endpoints', bind: ['tech', 'resource'] },
  deviceState: { resource: 'deviceStates', bind: ['deviceName'] },
  mailbox: { resource: 'mailboxes', bind: ['mailboxName'] },
  application: { resource: 'applications', bind: ['applicationName'] },
  sound: { resource: 'sounds', bind: ['soundId'] },
  module: { resource: 'asterisk', bind: ['moduleName'] },
  logChannel: { resource: 'asterisk', bind: ['logChannelName'] },
} as const satisfies Record<string, HandleSpec>;

export type HandleName = keyof typeof handleSpecs;
