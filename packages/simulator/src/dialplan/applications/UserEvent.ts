import { splitArguments } from '@ringflow/client';
import { type DialplanApplication, NEXT } from './DialplanApplication.ts';

/**
 * UserEvent(eventname[,key: value...]): raises ChannelUserevent; each extra argument is a
 * `key: value` pair (spaces around both are trimmed). An argument without `:` is skipped.
 *
 * @example UserEvent(OracleDialplanEvent,foo: bar,baz: qux) // fields { foo: 'bar', baz: 'qux' }
 */
export const UserEvent: DialplanApplication = {
  name: 'UserEvent',
  run({ host, data, warn }) {
    const [name = '', ...pairs] = splitArguments(data);
    if (!name.trim()) {
      warn('UserEvent requires an argument (eventname)');
      return NEXT;
    }
    const fields: Record<string, string> = {};
    for (const pair of pairs) {
      const colon = pair.indexOf(':');
      if (colon < 0) {
        warn(`UserEvent: no value in argument "${pair}", skipping it (write key: value)`);
        continue;
      }
      fields[pair.slice(0, colon).trim()] = pair.slice(colon + 1).trim();
    }
    host.userEvent(name.trim(), fields);
    return NEXT;
  },
};
