/**
 * Reads the timelines a bench run wrote with BENCH_TIMELINE=<dir> (every event, request and
 * reply an application saw in the measuring window, `bench/apps/LatencyProbe.ts`) and prints,
 * per application, one call's steps in their usual order with the median time of each from the
 * call's StasisStart and from the step before: where a call's wall-clock time goes, the
 * application's own turns (event to request) and the server's (request to reply, reply to the
 * next event) apart.
 *
 *   BENCH_TIMELINE=/tmp/tl npx tsx bench/run.ts --impls ringflow,bare --concurrency 100 --runs 1
 *   npx tsx bench/profile/callTimeline.ts /tmp/tl/*.json
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { TimelineEntry } from '../apps/LatencyProbe.ts';
import { median } from '../apps/stats.ts';

/** `caller-12` from any channel id, playback id or path of the bench's calls. */
const callOf = (text: string) => /caller-\d+/.exec(text)?.[0];

/** A step's name without the call's ids: `event ChannelDialplan (b)`, `request POST /channels/:id/play`. */
function stepName([, kind, what, about]: TimelineEntry): string {
  if (kind === 'event') return `event ${what}${/caller-\d+-b/.test(about) ? ' (b)' : ''}`;
  const path = about.replace(/caller-\d+(-b)?(-p\d)?/g, ':id').replace(/\?.*$/, '');
  return `${kind} ${what} ${path}`;
}

for (const file of process.argv.slice(2)) {
  const entries = JSON.parse(readFileSync(file, 'utf8')) as TimelineEntry[];
  const calls = new Map<string, TimelineEntry[]>();
  for (const entry of entries) {
    const call = callOf(entry[3]);
    if (call === undefined) continue;
    const steps = calls.get(call);
    if (steps) steps.push(entry);
    else calls.set(call, [entry]);
  }
  // Whole calls only: those whose StasisStart and StasisEnd both fall in the window.
  const whole = [...calls.values()].filter(
    (steps) =>
      steps.some((e) => e[1] === 'event' && e[2] === 'StasisStart') &&
      steps.some((e) => e[1] === 'event' && e[2] === 'StasisEnd'),
  );
  const sinceStart = new Map<string, number[]>();
  const sincePrevious = new Map<string, number[]>();
  const order = new Map<string, number[]>();
  for (const steps of whole) {
    const start = steps.find((e) => e[1] === 'event' && e[2] === 'StasisStart')![0];
    let previous: number | undefined;
    const seen = new Map<string, number>();
    steps.forEach((entry, index) => {
      const base = stepName(entry);
      seen.set(base, (seen.get(base) ?? 0) + 1);
      const name = seen.get(base)! > 1 ? `${base} #${seen.get(base)}` : base;
      const push = (map: Map<string, number[]>, value: number) => {
        const list = map.get(name);
        if (list) list.push(value);
        else map.set(name, [value]);
      };
      push(sinceStart, entry[0] - start);
      if (previous !== undefined) push(sincePrevious, entry[0] - previous);
      push(order, index);
      previous = entry[0];
    });
  }
  const names = [...order.keys()].sort((a, b) => median(order.get(a)!) - median(order.get(b)!));
  console.log(`\n${basename(file)}: ${whole.length} whole calls of ${calls.size} seen`);
  console.log('  from StasisStart (ms)  from previous step (ms)  step');
  for (const name of names) {
    const start = median(sinceStart.get(name) ?? []);
    const previous = median(sincePrevious.get(name) ?? []);
    console.log(`  ${start.toFixed(2).padStart(10)}  ${previous.toFixed(2).padStart(22)}     ${name}`);
  }
}
