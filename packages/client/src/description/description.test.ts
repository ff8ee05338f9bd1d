import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateTypes } from './generateTypes.ts';
import { eventTypeNames, findModel, models, operations } from './index.ts';

/**
 * Facts of interface version 1.10.0, written here by hand so that the description cannot silently
 * lose an operation or an event type: 94 operations (method + path) and 37 event types.
 */
const OPERATIONS_1_10 = [
  // asterisk
  'GET /asterisk/config/dynamic/{configClass}/{objectType}/{id}',
  'PUT /asterisk/config/dynamic/{configClass}/{objectType}/{id}',
  'DELETE /asterisk/config/dynamic/{configClass}/{objectType}/{id}',
  'GET /asterisk/info',
  'GET /asterisk/ping',
  'GET /asterisk/modules',
  'GET /asterisk/modules/{moduleName}',
  'POST /asterisk/modules/{moduleName}',
  'DELETE /asterisk/modules/{moduleName}',
  'PUT /asterisk/modules/{moduleName}',
  'GET /asterisk/logging',
  'POST /asterisk/logging/{logChannelName}',
  'DELETE /asterisk/logging/{logChannelName}',
  'PUT /asterisk/logging/{logChannelName}/rotate',
  'GET /asterisk/variable',
  'POST /asterisk/variable',
  // endpoints
  'GET /endpoints',
  'PUT /endpoints/sendMessage',
  'GET /endpoints/{tech}',
  'GET /endpoints/{tech}/{resource}',
  'PUT /endpoints/{tech}/{resource}/sendMessage',
  // channels
  'GET /channels',
  'POST /channels',
  'GET /channels/{channelId}',
  'POST /channels/{channelId}',
  'DELETE /channels/{channelId}',
  'POST /channels/{channelId}/continue',
  'POST /channels/{channelId}/move',
  'POST /channels/{channelId}/redirect',
  'POST /channels/{channelId}/answer',
  'POST /channels/{channelId}/ring',
  'DELETE /channels/{channelId}/ring',
  'POST /channels/{channelId}/dtmf',
  'POST /channels/{channelId}/mute',
  'DELETE /channels/{channelId}/mute',
  'POST /channels/{channelId}/hold',
  'DELETE /channels/{channelId}/hold',
  'POST /channels/{channelId}/moh',
  'DELETE /channels/{channelId}/moh',
  'POST /channels/{channelId}/silence',
  'DELETE /channels/{channelId}/silence',
  'POST /channels/{channelId}/play',
  'POST /channels/{channelId}/play/{playbackId}',
  'POST /channels/{channelId}/record',
  'GET /channels/{channelId}/variable',
  'POST /channels/{channelId}/variable',
  'POST /channels/{channelId}/snoop',
  'POST /channels/{channelId}/snoop/{snoopId}',
  'GET /channels/{channelId}/rtp_statistics',
  // bridges
  'GET /bridges',
  'POST /bridges',
  'POST /bridges/{bridgeId}',
  'GET /bridges/{bridgeId}',
  'DELETE /bridges/{bridgeId}',
  'POST /bridges/{bridgeId}/addChannel',
  'POST /bridges/{bridgeId}/removeChannel',
  'POST /bridges/{bridgeId}/videoSource/{channelId}',
  'DELETE /bridges/{bridgeId}/videoSource',
  'POST /bridges/{bridgeId}/moh',
  'DELETE /bridges/{bridgeId}/moh',
  'POST /bridges/{bridgeId}/play',
  'POST /bridges/{bridgeId}/play/{playbackId}',
  'POST /bridges/{bridgeId}/record',
  // recordings
  'GET /recordings/stored',
  'GET /recordings/stored/{recordingName}',
  'DELETE /recordings/stored/{recordingName}',
  'POST /recordings/stored/{recordingName}/copy',
  'GET /recordings/live/{recordingName}',
  'DELETE /recordings/live/{recordingName}',
  'POST /recordings/live/{recordingName}/stop',
  'POST /recordings/live/{recordingName}/pause',
  'DELETE /recordings/live/{recordingName}/pause',
  'POST /recordings/live/{recordingName}/mute',
  'DELETE /recordings/live/{recordingName}/mute',
  // sounds
  'GET /sounds',
  'GET /sounds/{soundId}',
  // playbacks
  'GET /playbacks/{playbackId}',
  'DELETE /playbacks/{playbackId}',
  'POST /playbacks/{playbackId}/control',
  // deviceStates
  'GET /deviceStates',
  'GET /deviceStates/{deviceName}',
  'PUT /deviceStates/{deviceName}',
  'DELETE /deviceStates/{deviceName}',
  // mailboxes
  'GET /mailboxes',
  'GET /mailboxes/{mailboxName}',
  'PUT /mailboxes/{mailboxName}',
  'DELETE /mailboxes/{mailboxName}',
  // events
  'GET /events',
  'POST /events/user/{eventName}',
  // applications
  'GET /applications',
  'GET /applications/{applicationName}',
  'POST /applications/{applicationName}/subscription',
  'DELETE /applications/{applicationName}/subscription',
  'PUT /applications/{applicationName}/eventFilter',
];

const EVENT_TYPES_1_10 = [
  'DeviceStateChanged',
  'PlaybackStarted',
  'PlaybackFinished',
  'RecordingStarted',
  'RecordingFinished',
  'RecordingFailed',
  'ApplicationMoveFailed',
  'ApplicationReplaced',
  'BridgeCreated',
  'BridgeDestroyed',
  'BridgeMerged',
  'BridgeBlindTransfer',
  'BridgeAttendedTransfer',
  'BridgeVideoSourceChanged',
  'ChannelCreated',
  'ChannelDestroyed',
  'ChannelEnteredBridge',
  'ChannelLeftBridge',
  'ChannelStateChange',
  'ChannelDtmfReceived',
  'ChannelDialplan',
  'ChannelCallerId',
  'ChannelUserevent',
  'ChannelHangupRequest',
  'ChannelVarset',
  'ChannelTalkingStarted',
  'ChannelTalkingFinished',
  'ChannelHold',
  'ChannelUnhold',
  'ContactStatusChange',
  'EndpointStateChange',
  'Dial',
  'StasisEnd',
  'StasisStart',
  'TextMessageReceived',
  'ChannelConnectedLine',
  'PeerStatusChange',
];

describe('the interface description', () => {
  const described = new Set(operations.map((op) => `${op.method} ${op.path}`));

  it('lists the 94 operations of 1.10.0', () => {
    expect(OPERATIONS_1_10).toHaveLength(94);
    expect(new Set(OPERATIONS_1_10).size).toBe(94);
    const missing = OPERATIONS_1_10.filter((o) => !described.has(o));
    expect(missing).toEqual([]);
  });

  it('marks every operation that 1.10.0 lacks with a version', () => {
    const later = operations.filter((op) => !OPERATIONS_1_10.includes(`${op.method} ${op.path}`));
    expect(later.length).toBeGreaterThan(0);
    for (const op of later) expect(op.since, `${op.resource}.${op.name}`).toBe('>1.10.0');
    for (const op of operations.filter((o) => OPERATIONS_1_10.includes(`${o.method} ${o.path}`))) {
      expect(op.since, `${op.resource}.${op.name}`).toBeUndefined();
    }
  });

  it('has one operation per method and path, and unique nicknames per resource', () => {
    expect(described.size).toBe(operations.length);
    const keys = operations.map((op) => `${op.resource}.${op.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('declares every 1.10.0 event type as a subtype of Event, each with a model', () => {
    for (const name of EVENT_TYPES_1_10) {
      expect(eventTypeNames, name).toContain(name);
      expect(findModel(name), name).toBeDefined();
    }
  });

  it('resolves every model and parameter type it mentions', () => {
    const primitives = new Set([
      'string',
      'int',
      'long',
      'double',
      'boolean',
      'Date',
      'object',
      'void',
      'binary',
    ]);
    const known = (t: string): boolean => {
      const list = /^List\[(.+)\]$/.exec(t);
      return list ? known(list[1]!) : primitives.has(t) || findModel(t) !== undefined;
    };
    for (const op of operations)
      expect(known(op.returns), `${op.resource}.${op.name} returns ${op.returns}`).toBe(true);
    for (const m of models) {
      for (const [prop, p] of Object.entries(m.properties))
        expect(known(p.type), `${m.id}.${prop}: ${p.type}`).toBe(true);
      for (const sub of m.subTypes ?? []) expect(findModel(sub), `${m.id} subtype ${sub}`).toBeDefined();
    }
  });

  it('keeps every path parameter declared as a required path parameter', () => {
    for (const op of operations) {
      for (const name of [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
        const p = op.params.find((x) => x.name === name);
        expect(p?.in, `${op.resource}.${op.name} {${name}}`).toBe('path');
      }
    }
  });

  it('has generated types that match the description (run `npm run generate` after changing it)', () => {
    const file = fileURLToPath(new URL('../generated/types.ts', import.meta.url));
    expect(readFileSync(file, 'utf8')).toBe(generateTypes());
  });
});
