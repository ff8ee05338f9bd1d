import { splitArguments } from '@ringflow/client';
import { type DialplanApplication, HUNGUP, NEXT } from './DialplanApplication.ts';

/**
 * Stasis(app[,args...]): hands the channel to an ARI application. When the application lets
 * it `continue`, the dialplan resumes at the requested place (or the next priority); when the
 * application is not registered, at the next priority.
 */
export const Stasis: DialplanApplication = {
  name: 'Stasis',
  async run({ host, data, tookTime }) {
    const [app = '', ...args] = splitArguments(data);
    if (!app.trim()) return { kind: 'failed', message: 'Stasis requires an argument (application name)' };
    const exit = await host.enterStasis(app.trim(), args);
    if (exit.kind === 'hungup' || host.isHungUp()) return HUNGUP;
    // Handed back by the ARI application (a REST call): time has passed.
    if (exit.kind === 'continue') tookTime();
    if (exit.kind === 'continue' && exit.target) return { kind: 'goto', target: exit.target };
    return NEXT;
  },
};
