/**
 * How the real server refuses a missing or disallowed parameter, where it differs from the
 * generic check derived from the description. Facts from the recorded traces.
 */

/** A refusal: HTTP status and the `message` of the body. */
export type Refusal = readonly [status: number, message: string];

export interface ParamRule {
  /** A missing required parameter: refused this way, or accepted (`'accept'`: the server goes on without it). */
  readonly missing?: Refusal | 'accept';
  /** A value outside the enum: refused this way, or accepted (the handler decides). */
  readonly invalid?: ((value: string) => Refusal) | 'accept';
}

const refuse = (status: number, message: string) => (): Refusal => [status, message];

/** Rules by operation key (`resource.name`), then parameter name. */
export const operationRules: Readonly<Record<string, Readonly<Record<string, ParamRule>>>> = {
  'asterisk.getInfo': { only: { invalid: 'accept' } },
  'asterisk.getGlobalVar': { variable: { missing: [400, 'Variable name is required'] } },
  'asterisk.setGlobalVar': { variable: { missing: [400, 'Variable name is required'] } },
  'asterisk.addLog': { configuration: { missing: [400, 'Configuration levels are required'] } },
  'channels.originate': { endpoint: { missing: [400, 'Endpoint must be specified'] } },
  'channels.originateWithId': { endpoint: { missing: [400, 'Endpoint must be specified'] } },
  'channels.create': {
    endpoint: { missing: [400, 'Endpoint must be specified'] },
    app: { missing: 'accept' },
  },
  'channels.hangup': { reason: { invalid: refuse(400, 'Invalid reason for hangup reason provided') } },
  'channels.mute': { direction: { invalid: refuse(400, 'Invalid direction specified') } },
  'channels.unmute': { direction: { invalid: refuse(400, 'Invalid direction specified') } },
  'channels.play': { media: { missing: [500, 'Failed to queue media for playback'] } },
  'channels.playWithId': { media: { missing: [500, 'Failed to queue media for playback'] } },
  'channels.record': {
    name: { missing: [500, 'Error parsing request'] },
    ifExists: { invalid: refuse(400, 'ifExists invalid') },
    terminateOn: { invalid: refuse(400, 'terminateOn invalid') },
  },
  'channels.externalMedia': {
    app: { missing: [400, 'app cannot be empty'] },
    // Observed (websocket transport): the handler refuses these in the real server's order.
    format: { missing: 'accept' },
    connection_type: { invalid: 'accept' },
    direction: { invalid: 'accept' },
  },
  'channels.getChannelVar': { variable: { missing: [400, 'Variable name is required'] } },
  'channels.setChannelVar': { variable: { missing: [400, 'Variable name is required'] } },
  'channels.getChannelVars': { variables: { missing: [400, 'Variable names are required'] } },
  'channels.setChannelVars': { variables: { missing: [400, 'Variables are required'] } },
  'channels.snoopChannel': {
    app: { missing: [400, 'Application name is required'] },
    spy: { invalid: refuse(400, 'Invalid direction specified for spy') },
    whisper: { invalid: refuse(400, 'Invalid direction specified for whisper') },
  },
  'channels.snoopChannelWithId': {
    app: { missing: [400, 'Application name is required'] },
    spy: { invalid: refuse(400, 'Invalid direction specified for spy') },
    whisper: { invalid: refuse(400, 'Invalid direction specified for whisper') },
  },
  'channels.move': { app: { missing: [400, 'Missing parameter app'] } },
  'channels.redirect': { endpoint: { missing: [400, 'Redirect endpoint required'] } },
  'bridges.addChannel': { channel: { missing: [400, 'Missing parameter channel'] } },
  'bridges.removeChannel': { channel: { missing: [400, 'Missing parameter channel'] } },
  'bridges.getBridgeVar': { variable: { missing: [400, 'Variable name is required'] } },
  'bridges.setBridgeVar': { variable: { missing: [400, 'Variable name is required'] } },
  'bridges.play': { media: { missing: [500, 'Failed to queue media for playback'] } },
  'bridges.playWithId': { media: { missing: [500, 'Failed to queue media for playback'] } },
  'bridges.record': {
    name: { missing: [500, 'Error parsing request'] },
    ifExists: { invalid: refuse(400, 'ifExists invalid') },
    terminateOn: { invalid: refuse(400, 'terminateOn invalid') },
  },
  'playbacks.control': {
    operation: {
      missing: [400, 'Missing operation'],
      invalid: (value) => [400, `Invalid operation ${value}`],
    },
  },
  // The device-state store reads the value case-insensitively and refuses the rest (500 Unknown device).
  'deviceStates.update': { deviceState: { missing: 'accept', invalid: 'accept' } },
  'mailboxes.update': { oldMessages: { missing: 'accept' }, newMessages: { missing: 'accept' } },
  'endpoints.sendMessage': { to: { missing: [400, 'To must be specified'] } },
  'endpoints.sendMessageToEndpoint': { from: { missing: [400, 'From must be specified'] } },
  'events.userEvent': { application: { missing: [400, 'Missing parameter application'] } },
  'applications.subscribe': { eventSource: { missing: [400, 'Missing parameter eventSource'] } },
  'applications.unsubscribe': { eventSource: { missing: [400, 'Missing parameter eventSource'] } },
  'recordings.copyStored': {
    destinationRecordingName: { missing: [400, 'Invalid destination recording name'] },
  },
};

/**
 * Checks the real server makes on several parameters together, before any single parameter is
 * checked; they read the values as sent (before defaults). Facts from the bad-input exchanges:
 * a snoop with neither `spy` nor `whisper` is refused first, whatever else is missing
 * (resource_channels.c checks the directions before the application).
 */
export const operationPrechecks: Readonly<
  Record<string, (sent: (name: string) => unknown) => Refusal | undefined>
> = {
  'channels.snoopChannel': snoopDirections,
  'channels.snoopChannelWithId': snoopDirections,
};

function snoopDirections(sent: (name: string) => unknown): Refusal | undefined {
  const given = (v: unknown) => v !== undefined && v !== null && v !== '';
  return given(sent('spy')) || given(sent('whisper'))
    ? undefined
    : [400, 'Direction must be specified for at least spy or whisper'];
}
