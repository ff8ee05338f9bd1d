import { splitArguments } from '@ringflow/client';
import { type DialplanApplication, NEXT } from './DialplanApplication.ts';

/** Verbose([level,]message): writes the message to the server log (the host's `log`). */
export const Verbose: DialplanApplication = {
  name: 'Verbose',
  run({ host, data }) {
    const args = splitArguments(data, ',', 2);
    const message = args.length === 2 && /^\s*\d+\s*$/.test(args[0]!) ? args[1]! : data;
    host.log('verbose', message);
    return NEXT;
  },
};
