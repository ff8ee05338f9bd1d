import { mediaFormat } from '@ringflow/client';
import type { PublishedEvent } from '../events/EventBus.ts';
import type { HeardAudio } from '../media/HeardAudio.ts';
import { mediaSocketsOf } from '../media/MediaSockets.ts';
import { answerDialedLeg, createChannel, dialFields, hangupChannel } from '../world/channelLifecycle.ts';
import { reviewAudio } from '../world/audioFlow.ts';
import { playDigits, receiveDtmf } from '../world/dtmf.ts';
import type { SimChannel } from '../world/SimChannel.ts';
import { stasisEntryFromArgs } from '../world/StasisEntry.ts';
import { startDialplan } from '../world/startDialplan.ts';
import { enterStasis } from '../world/stasis.ts';
import { attendedTransfer, blindTransfer } from '../world/transfers.ts';
import type { World } from '../world/World.ts';

/** An inbound call the driver places, as a phone would. */
export interface InboundCall {
  /** Caller number (CALLERID(num)); default `1000`. */
  readonly from?: string;
  /** Caller name; default empty. */
  readonly callerName?: string;
  /** The endpoint the call comes from (`PJSIP/alice`); default `PJSIP/<from>`. */
  readonly endpoint?: string;
  /** The number dialled; default `s`. */
  readonly to?: string;
  /** Dialplan context the call lands in; default `from-callers` (the shipped dialplan's inbound context). */
  readonly context?: string;
  /** Straight into this application, with `args`, instead of running the dialplan. */
  readonly app?: string;
  readonly args?: readonly string[];
  /** Caller-chosen channel id. */
  readonly channelId?: string;
  readonly language?: string;
}

/** Something that left the server: a text message, DTMF sent to a far end, a redirect, a refer. */
export interface OutboundItem {
  readonly kind: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

export interface WaitOptions {
  /** Reject after this many milliseconds of the simulator's clock; default: wait forever. */
  readonly timeoutMs?: number;
}

/**
 * Drives the simulated world from the outside, as callers and phones would: place calls, press
 * digits, talk, hang up, transfer, send texts; and observe events. Time-taking actions run on the
 * simulator's clock, so a test advances its VirtualClock to let them happen.
 *
 * @example
 * const id = sim.driver.placeCall({ from: '5551234', to: '100' });
 * await sim.driver.waitForEvent((e) => e.type === 'StasisStart');
 * sim.driver.pressDigits(id, '1#');
 * await clock.advance(1000);
 */
export class SimulatorDriver {
  /** What left the server, oldest first. */
  readonly outbound: OutboundItem[] = [];

  constructor(
    private readonly world: World,
    subscribeOutbound: (listener: (kind: string, detail: Readonly<Record<string, unknown>>) => void) => void,
  ) {
    subscribeOutbound((kind, detail) => this.outbound.push({ kind, detail }));
  }

  private channel(id: string): SimChannel {
    const ch = this.world.channel(id);
    if (!ch || ch.hangingUp) throw new Error(`No live channel '${id}'. List them with GET /channels.`);
    return ch;
  }

  /** Places an inbound call; returns its channel id. It runs the dialplan, or enters `app` directly. */
  placeCall(call: InboundCall = {}): string {
    const world = this.world;
    const from = call.from ?? '1000';
    const endpointKey = call.endpoint ?? `PJSIP/${from}`;
    const slash = endpointKey.indexOf('/');
    if (slash <= 0)
      throw new Error(`placeCall: endpoint '${endpointKey}' must be tech/resource, for example PJSIP/alice`);
    const tech = endpointKey.slice(0, slash);
    const resource = endpointKey.slice(slash + 1);
    const endpoint = world.endpoints.ensure(tech, resource);
    if (call.app !== undefined && !world.bus.app(call.app)) {
      throw new Error(`placeCall: application '${call.app}' has no event connection; connect it first`);
    }
    const context = call.context ?? 'from-callers';
    const exten = call.to ?? 's';
    const ch = createChannel(world, {
      ...(call.channelId ? { id: call.channelId } : {}),
      name: `${tech}/${resource}-${world.nextSequence(tech)}`,
      technology: tech,
      endpoint,
      deviceName: endpointKey,
      state: 'Ring',
      context,
      exten,
      callerName: call.callerName ?? '',
      callerNumber: from,
      ...(call.language ? { language: call.language } : {}),
    });
    if (call.app !== undefined) {
      const entry = stasisEntryFromArgs(call.app, call.args ?? []);
      ch.setApp('Stasis', entry.appData);
      world.channelChanged(ch);
      enterStasis(world, ch, entry.app, entry.args);
    } else startDialplan(world, ch, { context, exten, priority: 1 }, true);
    return ch.id;
  }

  /** The caller presses digits: ChannelDtmfReceived for each, `durationMs` long, `gapMs` apart. */
  pressDigits(channelId: string, digits: string, timing: { durationMs?: number; gapMs?: number } = {}): void {
    const ch = this.channel(channelId);
    playDigits(
      this.world,
      digits,
      { beforeMs: 0, betweenMs: timing.gapMs ?? 100, durationMs: timing.durationMs ?? 100 },
      (digit, ms) => receiveDtmf(this.world, ch, digit, ms),
    );
  }

  /** The caller hangs up with a Q.850 cause (16 normal clearing by default). */
  hangup(channelId: string, cause = 16): void {
    hangupChannel(this.world, this.channel(channelId), cause, 'remote');
  }

  /** The far end of an outbound call answers. */
  answer(channelId: string): void {
    const ch = this.channel(channelId);
    if (!ch.dialing)
      throw new Error(`answer: channel '${channelId}' is not an outbound call waiting for an answer`);
    answerDialedLeg(this.world, ch);
  }

  /** The far end of an outbound call refuses it (17 busy by default). */
  reject(channelId: string, cause = 17): void {
    hangupChannel(this.world, this.channel(channelId), cause, 'remote');
  }

  /**
   * The caller starts talking: ChannelTalkingStarted when TALK_DETECT is set; recordings hear
   * speech, and so does whoever hears this channel (its bridge, the other half of a Local pair).
   */
  startTalking(channelId: string): void {
    const ch = this.channel(channelId);
    if (ch.talkingSince !== undefined) return;
    ch.talkingSince = this.world.clock.now();
    reviewAudio(this.world, ch);
  }

  /**
   * The caller stops talking: ChannelTalkingFinished with the talk's `duration` in milliseconds
   * (unless sound still comes from the channel's side: media played into the call).
   */
  stopTalking(channelId: string): void {
    const ch = this.channel(channelId);
    if (ch.talkingSince === undefined) return;
    ch.talkingSince = undefined;
    reviewAudio(this.world, ch);
  }

  /**
   * The caller on `channelId` says one 20 ms frame of audio (`format`, default slin16: 640 bytes
   * of 16 kHz signed 16-bit little-endian samples), as a phone sends its microphone: the media
   * sockets of the caller's bridge get it on their next tick, in their own format (a voice bot
   * hears the caller's real voice, not the tone of {@link startTalking}). Returns the media
   * channels it was given to (none when the caller is in no bridge with one). Throws for a
   * channel that is gone, a format that is not PCM or G.711, or a frame that is not one frame.
   *
   * @example
   * sim.driver.speak(callerId, frame); // 640 bytes of the caller's voice
   * await clock.advance(20); // the bot's socket got it (as 160 bytes if its format is ulaw)
   */
  speak(channelId: string, frame: Uint8Array, format = 'slin16'): readonly string[] {
    const ch = this.channel(channelId);
    const known = mediaFormat(format);
    if (known?.kind !== 'framed' || known.encoding === 'opaque')
      throw new Error(`speak: format must be slin, slin16... or ulaw/alaw, got "${format}"`);
    if (frame.byteLength !== known.frameBytes)
      throw new Error(
        `speak: a frame of ${format} is ${known.frameBytes} bytes (20 ms), got ${frame.byteLength}`,
      );
    return mediaSocketsOf(this.world).speak(ch.id, frame, known);
  }

  /** The phone puts the call on hold (ChannelHold) or takes it off (ChannelUnhold). */
  hold(channelId: string, musicclass?: string): void {
    const ch = this.channel(channelId);
    ch.held = true;
    this.world.publishChannel('ChannelHold', ch, musicclass === undefined ? {} : { musicclass });
  }

  unhold(channelId: string): void {
    const ch = this.channel(channelId);
    ch.held = false;
    this.world.publishChannel('ChannelUnhold', ch);
  }

  /** The connected line of a channel changes (ChannelConnectedLine). */
  setConnectedLine(channelId: string, party: { name?: string; number?: string }): void {
    const ch = this.channel(channelId);
    if (party.name !== undefined) ch.connectedName = party.name;
    if (party.number !== undefined) ch.connectedNumber = party.number;
    this.world.channelChanged(ch);
  }

  /** An inbound text message from an endpoint: TextMessageReceived to apps subscribed to it. */
  sendText(message: {
    endpoint: string;
    to: string;
    body: string;
    from?: string;
    variables?: Readonly<Record<string, unknown>>;
  }): void {
    const slash = message.endpoint.indexOf('/');
    if (slash <= 0) throw new Error(`sendText: endpoint '${message.endpoint}' must be tech/resource`);
    const ep = this.world.endpoints.ensure(
      message.endpoint.slice(0, slash),
      message.endpoint.slice(slash + 1),
    );
    const text: Record<string, unknown> = {
      from: message.from ?? `${ep.technology.toLowerCase()}:${ep.resource}`,
      to: message.to,
      body: message.body,
    };
    if (message.variables) text.variables = { ...message.variables };
    this.world.publish(
      'TextMessageReceived',
      { message: text, endpoint: ep.toJson() },
      { endpoint: { technology: ep.technology, resource: ep.resource } },
    );
  }

  /** The caller on `channelId` blind-transfers its bridged call to `exten@context`; returns the new Local `;1` id. */
  blindTransfer(channelId: string, exten: string, context = 'default'): string {
    return blindTransfer(this.world, this.channel(channelId), exten, context).id;
  }

  /**
   * The caller joins its two calls (attended transfer). Both bridged: a Local pair links the two
   * bridges in the legs' places; returns the ids of its halves (`;1` in the first leg's bridge).
   */
  attendedTransfer(firstLegId: string, secondLegId: string): { firstLink?: string; secondLink?: string } {
    const { firstLink, secondLink } = attendedTransfer(
      this.world,
      this.channel(firstLegId),
      this.channel(secondLegId),
    );
    return firstLink && secondLink ? { firstLink: firstLink.id, secondLink: secondLink.id } : {};
  }

  /**
   * The far end of a ringing outbound call forwards it to `target` (`PJSIP/carol`): Dial reports
   * the forward, a new channel rings the target and inherits the original's subscriptions and
   * destination; the original leg ends. Returns the new channel id.
   */
  forwardCall(channelId: string, target: string): string {
    const world = this.world;
    const leg = this.channel(channelId);
    if (!leg.dialing)
      throw new Error(`forwardCall: channel '${channelId}' is not an outbound call that is ringing`);
    const slash = target.indexOf('/');
    if (slash <= 0) throw new Error(`forwardCall: target '${target}' must be tech/resource`);
    const tech = target.slice(0, slash);
    const resource = target.slice(slash + 1);
    const endpoint = world.endpoints.ensure(tech, resource);
    const next = createChannel(world, {
      name: `${tech}/${resource}-${world.nextSequence(tech)}`,
      technology: tech,
      endpoint,
      deviceName: target,
      state: 'Down',
      context: leg.context,
      exten: leg.exten,
      callerName: leg.callerName,
      callerNumber: leg.callerNumber,
    });
    // Apps subscribed to the original follow the call to its new channel.
    for (const app of world.bus.activeApps()) if (app.channelIds.has(leg.id)) app.channelIds.add(next.id);
    world.publish(
      'Dial',
      { ...dialFields(leg, ''), forward: target, forwarded: next.snapshot() },
      { channels: [leg, next] },
    );
    next.idleApp = ['AppDial2', '(Outgoing Line)'];
    next.setApp('', '');
    world.channelChanged(next);
    next.dialing = true;
    next.dialString = resource;
    next.afterAnswer = leg.afterAnswer;
    leg.afterAnswer = undefined;
    leg.dialing = false;
    hangupChannel(world, leg, 16, 'remote');
    next.state = 'Ringing';
    world.channelChanged(next);
    world.publish('Dial', dialFields(next, 'RINGING'), { channels: [next] });
    return next.id;
  }

  /** An endpoint's peer changes status (PeerStatusChange; EndpointStateChange when online/offline flips). */
  peerStatus(endpointKey: string, peerStatus: string, extra: Readonly<Record<string, string>> = {}): void {
    const slash = endpointKey.indexOf('/');
    const ep = this.world.endpoints.ensure(endpointKey.slice(0, slash), endpointKey.slice(slash + 1));
    const state = /^(reachable|registered|ok)$/i.test(peerStatus)
      ? 'online'
      : /^(unreachable|unregistered|rejected)$/i.test(peerStatus)
        ? 'offline'
        : ep.state;
    const scope = { endpoint: { technology: ep.technology, resource: ep.resource } };
    this.world.publish(
      'PeerStatusChange',
      { endpoint: ep.toJson(), peer: { peer_status: peerStatus, ...extra } },
      scope,
    );
    if (state !== ep.state) {
      ep.state = state;
      this.world.publish('EndpointStateChange', { endpoint: ep.toJson() }, scope);
    }
  }

  /** A contact of an endpoint changes status (ContactStatusChange). */
  contactStatus(
    endpointKey: string,
    contact: {
      uri: string;
      status: 'Unreachable' | 'Reachable' | 'Unknown' | 'NonQualified' | 'Removed';
      aor?: string;
      roundtripUsec?: string;
    },
  ): void {
    const slash = endpointKey.indexOf('/');
    const ep = this.world.endpoints.ensure(endpointKey.slice(0, slash), endpointKey.slice(slash + 1));
    const info: Record<string, unknown> = {
      uri: contact.uri,
      contact_status: contact.status,
      aor: contact.aor ?? ep.resource,
    };
    if (contact.roundtripUsec !== undefined) info.roundtrip_usec = contact.roundtripUsec;
    this.world.publish(
      'ContactStatusChange',
      { endpoint: ep.toJson(), contact_info: info },
      {
        endpoint: { technology: ep.technology, resource: ep.resource },
      },
    );
  }

  /**
   * What the caller on `channelId` heard of the audio applications sent on media sockets (a
   * voice bot's utterances): one entry per stretch played without a gap, oldest first, once it
   * ended. See `sim.media.onHeard` to be told as they end.
   *
   * @example
   * await clock.advance(3000);
   * sim.driver.heard(callerId).map((a) => a.frames); // [50]: one second of the bot's audio
   */
  heard(channelId: string): readonly HeardAudio[] {
    return mediaSocketsOf(this.world).heard(channelId);
  }

  /** Calls `listener` with every event the server raises (once, whoever receives it); returns the remover. */
  onEvent(listener: (event: PublishedEvent) => void): () => void {
    return this.world.bus.listen((event) => listener(event));
  }

  /**
   * Resolves with the next event matching `match` (an event type or a predicate).
   * With `timeoutMs`, rejects when that much time passes on the simulator's clock first.
   */
  waitForEvent(
    match: string | ((event: PublishedEvent) => boolean),
    options: WaitOptions = {},
  ): Promise<PublishedEvent> {
    const test = typeof match === 'string' ? (e: PublishedEvent) => e.type === match : match;
    return new Promise((resolve, reject) => {
      let timer: unknown;
      const off = this.world.bus.listen((event) => {
        if (!test(event)) return;
        off();
        if (timer !== undefined) this.world.clock.clearTimeout(timer as never);
        resolve(event);
      });
      if (options.timeoutMs !== undefined) {
        timer = this.world.clock.setTimeout(() => {
          off();
          reject(
            new Error(`waitForEvent: no matching event within ${options.timeoutMs} ms of simulated time`),
          );
        }, options.timeoutMs);
      }
    });
  }
}
