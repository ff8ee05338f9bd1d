import { HttpError } from '@ringflow/client/interface';
import type { FlowHost } from '../compile/FlowHost.ts';

/** What the `conference` step asks of a room. */
export interface RoomRequest {
  readonly bridgeId: string;
  /** The room name given by the flow (the bridge's `name`). */
  readonly name: string;
  /** Bridge attributes (`mixing`, `holding`, `video_sfu`...). */
  readonly type: readonly string[];
  /** The flow gave `type` itself (not the default): a room that differs is worth a warning. */
  readonly typeGiven: boolean;
  readonly channel: string;
  readonly role?: string;
  readonly mute?: boolean;
  readonly absorbDTMF?: boolean;
}

/** How the call got into the room, and who it found there. */
export interface RoomJoined {
  readonly bridgeId: string;
  /** This call created the room (it was not there yet). */
  readonly created: boolean;
  /** Channel ids in the room once this call joined (this call's included). */
  readonly members: readonly string[];
  /** How many are in the room, this call included. */
  readonly count: number;
  /** The channel whose video everyone sees, when one was set (`videoSource`); '' otherwise. */
  readonly videoSource: string;
}

function isStatus(error: unknown, status: number): boolean {
  return error instanceof HttpError && error.status === status;
}

/** The part of a bridge's type a server reports back (`bridge_type`): holding or mixing. */
function reportedKind(type: readonly string[]): 'holding' | 'mixing' {
  return type.includes('holding') ? 'holding' : 'mixing';
}

/**
 * Creates a conference room or joins it when it exists. Every call naming the same room asks
 * for the same bridge id, so the first one creates it and the others are told `409 Bridge with id
 * ... already exists` (a real server does not update an existing bridge): they join it. Two calls
 * arriving at the same instant both send the create; one wins, the other gets the 409 and joins.
 * A room that disappears between the 409 and the join (its last participant left and it closed)
 * is created again, once.
 *
 * Settings of the step that an existing room does not have (another type, another name) are not
 * applied, and the flow's log says so: the room was made by whoever came first.
 */
export async function joinRoom(host: FlowHost, room: RoomRequest): Promise<RoomJoined> {
  const { ari } = host;
  for (let attempt = 1; ; attempt++) {
    let created = true;
    try {
      await ari.bridges.createWithId({ bridgeId: room.bridgeId, name: room.name, type: room.type.join(',') });
    } catch (error) {
      if (!isStatus(error, 409)) throw error;
      created = false;
      await warnAboutSettings(host, room);
    }
    try {
      await ari.bridges.addChannel({
        bridgeId: room.bridgeId,
        channel: room.channel,
        ...(room.role ? { role: room.role } : {}),
        ...(room.mute !== undefined ? { mute: room.mute } : {}),
        ...(room.absorbDTMF !== undefined ? { absorbDTMF: room.absorbDTMF } : {}),
      });
      return { bridgeId: room.bridgeId, created, ...(await whoIsIn(host, room)) };
    } catch (error) {
      // The room closed between our create (or its 409) and the join: open it again, once. A 404
      // about the call's own channel is the caller gone, and the session reports it as such.
      const roomGone =
        error instanceof HttpError && error.status === 404 && /bridge/i.test(error.serverMessage);
      if (!roomGone || attempt >= 2) throw error;
    }
  }
}

/**
 * Who is in the room just after this call joined: the flow decides from it (a member finding the
 * moderator in already need not wait). Read once, after the join; later arrivals and departures
 * come as roomEntered / roomLeft events.
 */
async function whoIsIn(
  host: FlowHost,
  room: RoomRequest,
): Promise<Pick<RoomJoined, 'members' | 'count' | 'videoSource'>> {
  try {
    const bridge = await host.ari.bridges.get({ bridgeId: room.bridgeId });
    const members = bridge.channels.includes(room.channel)
      ? bridge.channels
      : [...bridge.channels, room.channel];
    return { members, count: members.length, videoSource: bridge.video_source_id ?? '' };
  } catch {
    // The join succeeded; the room closing this instant is told by its roomClosed event.
    return { members: [room.channel], count: 1, videoSource: '' };
  }
}

/** The room exists already: the step's type and name apply only to a room it creates. */
async function warnAboutSettings(host: FlowHost, room: RoomRequest): Promise<void> {
  if (!host.log) return;
  let existing: { bridge_type?: string; name?: string };
  try {
    existing = await host.ari.bridges.get({ bridgeId: room.bridgeId });
  } catch {
    return; // gone meanwhile: the join says what happens next
  }
  const differences: string[] = [];
  if (room.typeGiven && existing.bridge_type && existing.bridge_type !== reportedKind(room.type))
    differences.push(`type ${room.type.join(',')} (the room is ${existing.bridge_type})`);
  if (existing.name && existing.name !== room.name)
    differences.push(`name "${room.name}" (the room is named "${existing.name}")`);
  if (differences.length === 0) return;
  host.log.warn(
    { bridge: room.bridgeId, notApplied: differences },
    `conference: joined the existing room ${room.bridgeId}; this step's ${differences.join(' and ')} were not applied`,
  );
}
