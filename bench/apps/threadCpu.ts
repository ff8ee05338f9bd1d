import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (ms, user + system) of the process's main thread and of all its other threads
 * (V8's garbage-collection and compiler workers, libuv's pool), from /proc on Linux: the two
 * parts `process.cpuUsage()` sums. Undefined elsewhere. In clock ticks (10 ms): read it over
 * seconds.
 *
 * @example
 * const before = threadCpu(); work(); const after = threadCpu();
 * const helperMs = after && before ? after.otherMs - before.otherMs : Number.NaN;
 */
export function threadCpu(): { mainMs: number; otherMs: number } | undefined {
  if (process.platform !== 'linux') return undefined;
  let mainMs = 0;
  let otherMs = 0;
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * 10;
      if (Number(tid) === process.pid) mainMs += ms;
      else otherMs += ms;
    }
  } catch {
    return undefined;
  }
  return { mainMs, otherMs };
}
