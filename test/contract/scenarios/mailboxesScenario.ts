import { expect } from 'vitest';
import { describeEvent } from '../describeEvent.ts';
import { httpFailure } from '../httpFailure.ts';
import { LISTENS_TO_EVERYTHING, type Scenario } from '../Scenario.ts';

/** Reference scenario 13: mailboxes are created by their first update; counts default to 0. */
export const mailboxesScenario: Scenario = {
  name: 'mailboxes: update creates, missing or bad counts are 0, delete, then 404',
  notPerCall: LISTENS_TO_EVERYTHING,
  async run(s) {
    const log = await s.listen('demo-app', { subscribeAll: true });
    const name = s.id('mbx');
    const mailbox = s.rest.mailbox(name);
    await mailbox.update({ oldMessages: 1, newMessages: 2 });
    expect(await mailbox.get()).toEqual({ name, old_messages: 1, new_messages: 2 });
    expect(await s.rest.mailboxes.list()).toContainEqual({ name, old_messages: 1, new_messages: 2 });
    expect(await s.send('PUT', `/mailboxes/${name}`, { oldMessages: '1' })).toMatchObject({ status: 204 });
    expect(await mailbox.get()).toEqual({ name, old_messages: 1, new_messages: 0 });
    expect(await s.send('PUT', `/mailboxes/${name}`, { oldMessages: 'abc', newMessages: '2' })).toMatchObject(
      {
        status: 204,
      },
    );
    expect(await mailbox.get()).toEqual({ name, old_messages: 0, new_messages: 2 });
    await mailbox.delete();
    expect(await httpFailure(mailbox.get())).toEqual({ status: 404, message: 'Mailbox is does not exist' });
    expect(await httpFailure(mailbox.delete())).toEqual({ status: 404, message: 'Mailbox does not exist' });
    // Each change is published as the message-waiting device of the mailbox.
    await s.until('four MWI changes', () => log.of('DeviceStateChanged').length >= 4);
    expect(log.of('DeviceStateChanged').map((e) => describeEvent(e).split(' ')[1])).toEqual(
      Array(4).fill(`MWI:${name}`),
    );
  },
};
