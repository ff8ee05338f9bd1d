import { HttpError, VirtualClock } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import type { FlowAri, FlowHost } from '../compile/FlowHost.ts';
import { joinRoom, type RoomRequest } from './joinRoom.ts';

function httpError(status: number, operation: string, serverMessage: string): HttpError {
  return new HttpError({ status, operation, method: 'POST', path: '/bridges/room', serverMessage });
}

/** A server with scripted answers to the three requests a join makes, recording what was asked. */
function fakeHost(answers: {
  create: (() => unknown)[];
  add: (() => unknown)[];
  bridge?: { bridge_type: string; name: string; channels: string[]; video_source_id?: string };
}) {
  const asked: string[] = [];
  const warnings: { details: Record<string, unknown>; message: string }[] = [];
  const next = (list: (() => unknown)[], what: string) => {
    asked.push(what);
    const answer = list.shift();
    return Promise.resolve().then(() => answer?.());
  };
  const bridges = {
    createWithId: () => next(answers.create, 'create'),
    addChannel: () => next(answers.add, 'add'),
    get: () => {
      asked.push('get');
      return Promise.resolve(answers.bridge ?? { bridge_type: 'mixing', name: 'sales', channels: ['c1'] });
    },
  };
  const host = {
    ari: { bridges } as unknown as FlowAri,
    clock: new VirtualClock(0),
    application: 'test',
    newId: () => 'id',
    log: { warn: (details: Record<string, unknown>, message: string) => warnings.push({ details, message }) },
  } as FlowHost;
  return { host, asked, warnings };
}

const ROOM: RoomRequest = {
  bridgeId: 'ringflow-sales',
  name: 'sales',
  type: ['mixing'],
  typeGiven: false,
  channel: 'c1',
};

describe('joinRoom', () => {
  it('creates the room when it is not there, and says who is in it', async () => {
    const { host, asked, warnings } = fakeHost({
      create: [() => ({})],
      add: [() => undefined],
      bridge: { bridge_type: 'mixing', name: 'sales', channels: ['c1'] },
    });
    const joined = await joinRoom(host, ROOM);
    expect(joined).toEqual({
      bridgeId: 'ringflow-sales',
      created: true,
      members: ['c1'],
      count: 1,
      videoSource: '',
    });
    expect(asked).toEqual(['create', 'add', 'get']);
    expect(warnings).toEqual([]);
  });

  it('joins the room another call made (409), and reports its members and video source', async () => {
    const { host, warnings } = fakeHost({
      create: [
        () => {
          throw httpError(409, 'bridges.createWithId', "Bridge with id 'ringflow-sales' already exists");
        },
      ],
      add: [() => undefined],
      bridge: { bridge_type: 'mixing', name: 'sales', channels: ['c7', 'c1'], video_source_id: 'c7' },
    });
    const joined = await joinRoom(host, ROOM);
    expect(joined).toMatchObject({ created: false, members: ['c7', 'c1'], count: 2, videoSource: 'c7' });
    expect(warnings).toEqual([]); // same type (default) and name: nothing to say
  });

  it('warns when the existing room has another type or name than the step asks for', async () => {
    const { host, warnings } = fakeHost({
      create: [
        () => {
          throw httpError(409, 'bridges.createWithId', 'exists');
        },
      ],
      add: [() => undefined],
      bridge: { bridge_type: 'mixing', name: 'Sales weekly', channels: ['c7'] },
    });
    await joinRoom(host, { ...ROOM, type: ['holding'], typeGiven: true });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toBe(
      'conference: joined the existing room ringflow-sales; this step\'s type holding (the room is mixing) and name "sales" (the room is named "Sales weekly") were not applied',
    );
    expect(warnings[0]!.details).toMatchObject({ bridge: 'ringflow-sales' });
  });

  it('opens the room again when it closed between the 409 and the join, once', async () => {
    const { host, asked } = fakeHost({
      create: [
        () => {
          throw httpError(409, 'bridges.createWithId', 'exists');
        },
        () => ({}),
      ],
      add: [
        () => {
          throw httpError(404, 'bridges.addChannel', 'Bridge not found');
        },
        () => undefined,
      ],
    });
    const joined = await joinRoom(host, ROOM);
    expect(joined.created).toBe(true);
    expect(asked).toEqual(['create', 'get', 'add', 'create', 'add', 'get']);
  });

  it('fails with the server error when the join is refused for another reason', async () => {
    const refused = httpError(422, 'bridges.addChannel', 'Channel not in Stasis application');
    const { host } = fakeHost({
      create: [() => ({})],
      add: [
        () => {
          throw refused;
        },
      ],
    });
    await expect(joinRoom(host, ROOM)).rejects.toBe(refused);
  });
});
