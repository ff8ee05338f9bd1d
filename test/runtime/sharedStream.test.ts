import { VirtualClock } from '@ringflow/client';
import { type CallEvent, type CallHandle, type CallInput, callActors } from '@ringflow/runtime';
import { createSimulator } from '@ringflow/simulator';
import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { expectNothingLeft, inProcessApp } from './harness.ts';

/** What one call's machine saw, to check that every event reached it once. */
interface Seen {
  readonly app: string;
  readonly events: string[];
  digits?: string;
}

/**
 * A one-question menu that also notes every event it is given: answer, collect up to two digits
 * (so a duplicated press would read as "11"), announce the answer with a user event, wait.
 */
function menuMachine(seen: Map<string, Seen>) {
  return setup({
    types: {
      input: {} as CallInput,
      context: {} as { call: CallHandle; digits: string },
      events: {} as CallEvent,
    },
    actors: callActors,
  }).createMachine({
    context: ({ input }) => {
      seen.set(input.call.channelId, { app: input.call.app, events: [] });
      return { call: input.call, digits: '' };
    },
    initial: 'answering',
    on: {
      '*': {
        actions: ({ context, event }) => {
          const application = (event as { application?: string }).application;
          const about =
            (event as { channel?: { id?: string } }).channel?.id ??
            (event as { playback?: { target_uri?: string } }).playback?.target_uri;
          seen.get(context.call.channelId)?.events.push(`${event.type} ${about ?? ''} to ${application}`);
        },
      },
    },
    states: {
      answering: {
        invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'prompt' },
      },
      prompt: {
        invoke: {
          src: 'play',
          input: ({ context }) => ({ call: context.call, media: 'sound:hello-world' }),
          onDone: 'menu',
        },
      },
      menu: {
        invoke: {
          src: 'collectDigits',
          input: ({ context }) => ({
            call: context.call,
            maxDigits: 2,
            firstDigitTimeoutMs: 5000,
            interDigitTimeoutMs: 2000,
          }),
          onDone: {
            target: 'announcing',
            actions: assign({ digits: ({ event }) => event.output.digits }),
          },
        },
      },
      announcing: {
        entry: ({ context }) => {
          const entry = seen.get(context.call.channelId);
          if (entry) entry.digits = context.digits;
        },
        invoke: {
          src: 'userEvent',
          input: ({ context }) => ({
            call: context.call,
            name: 'Chosen',
            variables: { digits: context.digits },
          }),
          onDone: 'waiting',
        },
      },
      waiting: {},
    },
  });
}

const dtmfSeen = (entry: Seen | undefined) =>
  (entry?.events ?? []).filter((e) => e.startsWith('ChannelDtmfReceived'));

describe('one socket for two applications', () => {
  for (const subscribeAll of [false, true]) {
    it(`each call's machine gets each event once, its own application's copy (subscribeAll ${subscribeAll})`, async () => {
      const clock = new VirtualClock();
      const simulator = createSimulator({ clock });
      const seen = new Map<string, Seen>();
      const { app, requests } = inProcessApp(clock, [{ name: 'pbx', server: simulator }], {
        apps: ['sales', 'support'],
        subscribeAll,
        call: menuMachine(seen),
      });
      await app.start();
      simulator.driver.placeCall({ app: 'sales', channelId: 'ann', from: '100' });
      simulator.driver.placeCall({ app: 'support', channelId: 'bob', from: '200' });
      await clock.advance(100);
      simulator.driver.pressDigits('ann', '1');
      simulator.driver.pressDigits('bob', '2');
      await clock.advance(5000);

      expect(seen.get('ann')).toMatchObject({ app: 'sales', digits: '1' });
      expect(seen.get('bob')).toMatchObject({ app: 'support', digits: '2' });
      expect(dtmfSeen(seen.get('ann'))).toEqual(['ChannelDtmfReceived ann to sales']);
      expect(dtmfSeen(seen.get('bob'))).toEqual(['ChannelDtmfReceived bob to support']);
      expect(seen.get('bob')?.events.filter((e) => e.startsWith('Playback'))).toEqual([
        'PlaybackStarted channel:bob to support',
        'PlaybackFinished channel:bob to support',
      ]);
      // Every event a machine got was its own application's copy, and none came twice.
      for (const [, entry] of seen) {
        expect(entry.events.every((e) => e.endsWith(` to ${entry.app}`))).toBe(true);
        expect(new Set(entry.events).size).toBe(entry.events.length);
      }
      const chosen = requests.filter((r) => r.path === '/events/user/Chosen');
      expect(chosen.map((r) => [r.query.application, r.body])).toEqual([
        ['sales', { variables: { digits: '1' } }],
        ['support', { variables: { digits: '2' } }],
      ]);
      simulator.driver.hangup('ann');
      simulator.driver.hangup('bob');
      await clock.advance(100);
      expect(app.metrics.summary()).toMatchObject({ callsStarted: 2, callsEnded: 2 });
      expectNothingLeft(app);
      await app.stop();
    });
  }

  it('events of a bridge shared by both applications, and a user event sent to the other one, reach the owner once', async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({ clock });
    const events = new Map<string, string[]>();
    const note = (call: CallHandle, event: CallEvent) => {
      const list = events.get(call.channelId) ?? [];
      events.set(call.channelId, list);
      const channel = (event as { channel?: { id?: string } }).channel?.id;
      list.push(`${event.type} ${channel ?? ''} to ${(event as { application?: string }).application}`);
    };
    /** sales: answer, bridge with the support call, tell support by a user event about the sales channel. */
    const sales = setup({
      types: { input: {} as CallInput, context: {} as { call: CallHandle }, events: {} as CallEvent },
      actors: callActors,
    }).createMachine({
      context: ({ input }) => ({ call: input.call }),
      initial: 'answering',
      on: { '*': { actions: ({ context, event }) => note(context.call, event) } },
      states: {
        answering: {
          invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'bridging' },
        },
        bridging: {
          invoke: {
            src: 'bridgeWith',
            input: ({ context }) => ({ call: context.call, channelId: 'bob' }),
            onDone: 'telling',
          },
        },
        telling: {
          invoke: {
            src: 'userEvent',
            input: ({ context }) => ({ call: context.call, name: 'Transferred', application: 'support' }),
            onDone: 'talking',
          },
        },
        talking: {},
      },
    });
    const support = setup({
      types: { input: {} as CallInput, context: {} as { call: CallHandle }, events: {} as CallEvent },
      actors: callActors,
    }).createMachine({
      context: ({ input }) => ({ call: input.call }),
      initial: 'answering',
      on: { '*': { actions: ({ context, event }) => note(context.call, event) } },
      states: {
        answering: {
          invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'waiting' },
        },
        waiting: {},
      },
    });
    const { app } = inProcessApp(clock, [{ name: 'pbx', server: simulator }], {
      apps: ['sales', 'support'],
      call: (info) => (info.app === 'sales' ? sales : support),
    });
    await app.start();
    simulator.driver.placeCall({ app: 'support', channelId: 'bob', from: '200' });
    await clock.advance(10);
    simulator.driver.placeCall({ app: 'sales', channelId: 'ann', from: '100' });
    await clock.advance(1000);

    const ann = events.get('ann') ?? [];
    // Both applications have a channel in the bridge, so the server sends two copies of each of
    // its events; the sales call owns the bridge and takes each once, its own application's copy.
    expect(ann.filter((e) => e.startsWith('ChannelEnteredBridge'))).toEqual([
      'ChannelEnteredBridge ann to sales',
      'ChannelEnteredBridge bob to sales',
    ]);
    // The user event went to support only: the only copy there is reaches the sales call once.
    expect(ann.filter((e) => e.startsWith('ChannelUserevent'))).toEqual(['ChannelUserevent ann to support']);
    expect(new Set(ann).size).toBe(ann.length);
    const bob = events.get('bob') ?? [];
    expect(bob.filter((e) => e.startsWith('ChannelEnteredBridge'))).toEqual([
      'ChannelEnteredBridge bob to support',
    ]);
    // One session per caller: the shared bridge did not start anything else.
    expect(app.metrics.summary()).toMatchObject({ callsStarted: 2 });
    simulator.driver.hangup('ann');
    simulator.driver.hangup('bob');
    await clock.advance(100);
    expectNothingLeft(app);
    await app.stop();
  });
});

describe('a conference room on a socket for two applications', () => {
  it('the bridge session takes each bridge event once, though both applications are sent a copy', async () => {
    const clock = new VirtualClock();
    const simulator = createSimulator({ clock });
    let roomId = '';
    const joinRoom = setup({
      types: { input: {} as CallInput, context: {} as { call: CallHandle } },
      actors: callActors,
    }).createMachine({
      context: ({ input }) => ({ call: input.call }),
      initial: 'answering',
      states: {
        answering: {
          invoke: { src: 'answer', input: ({ context }) => ({ call: context.call }), onDone: 'joining' },
        },
        joining: {
          invoke: {
            src: 'joinBridge',
            input: ({ context }) => ({ call: context.call, bridgeId: roomId }),
            onDone: 'inRoom',
          },
        },
        inRoom: {},
      },
    });
    const { app, events } = inProcessApp(clock, [{ name: 'pbx', server: simulator }], {
      apps: ['sales', 'support'],
      call: joinRoom,
    });
    await app.start();
    const room = await app.createBridge({ name: 'huddle' });
    roomId = room.bridgeId;
    const seen: string[] = [];
    room.events$.subscribe((e) => {
      const channel = (e as { channel?: { id?: string } }).channel?.id;
      seen.push(`${e.type} ${channel ?? ''}`);
    });
    simulator.driver.placeCall({ app: 'sales', channelId: 'ann', from: '100' });
    simulator.driver.placeCall({ app: 'support', channelId: 'bob', from: '200' });
    await clock.advance(100);
    expect(room.state.participants).toEqual(['ann', 'bob']);
    // The server sent bob's entrance to both applications (both have a channel in the room).
    const bobEntered = events.filter(
      (e) => e.type === 'ChannelEnteredBridge' && e.about === 'bob' && e.event.bridge !== undefined,
    );
    expect(bobEntered.map((e) => e.application).sort()).toEqual(['sales', 'support']);
    expect(seen.filter((e) => e.startsWith('ChannelEnteredBridge'))).toEqual([
      'ChannelEnteredBridge ann',
      'ChannelEnteredBridge bob',
    ]);
    simulator.driver.hangup('ann');
    simulator.driver.hangup('bob');
    await clock.advance(100);
    expect(seen.filter((e) => e.startsWith('ChannelLeftBridge'))).toEqual([
      'ChannelLeftBridge ann',
      'ChannelLeftBridge bob',
    ]);
    room.destroy();
    await clock.advance(10);
    expectNothingLeft(app);
    await app.stop();
  });
});
