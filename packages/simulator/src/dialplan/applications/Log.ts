import { splitArguments } from '@ringflow/client';
import { type DialplanApplication, NEXT } from './DialplanApplication.ts';

const LEVELS = { ERROR: 'error', WARNING: 'warning', NOTICE: 'notice' } as const;

/** Log(level,message): level ERROR, WARNING, NOTICE (others log as verbose). */
export const Log: DialplanApplication = {
  name: 'Log',
  run({ host, data, warn }) {
    const [level = '', message = ''] = splitArguments(data, ',', 2);
    if (!level.trim()) {
      warn('Log requires arguments: Log(level,message)');
      return NEXT;
    }
    host.log(LEVELS[level.trim().toUpperCase() as keyof typeof LEVELS] ?? 'verbose', message);
    return NEXT;
  },
};
