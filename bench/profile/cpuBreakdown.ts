/**
 * Splits a `.cpuprofile` of a bench application child (`npm run bench -- --profile DIR --source`)
 * into where its CPU time goes, per call: each sample is charged to the first frame, from the
 * leaf up, that belongs to a known part (Node's own stream, socket and timer internals are passed
 * over, so their time goes to the library that called them: ws, undici, pino...). Only the
 * samples of the bench's measuring window count (`--window FROM,TO` in µs of the monotonic
 * clock, the `appWindowUs` of `--json FILE`), divided by the calls completed in it
 * (`windowCalls`); without `--window`, from the first to the last sample in call code.
 *
 *   npx tsx bench/profile/cpuBreakdown.ts --calls 2400 --window 123,456 DIR/ringflow-100-*.cpuprofile
 *
 * Prints milliseconds per call for each part, and the share of the busy time (idle excluded).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Parts, first match wins; tested against `url` and `functionName` of a frame. */
const PARTS: readonly { readonly part: string; readonly test: (url: string, fn: string) => boolean }[] = [
  { part: 'bench probe and JSON.parse of frames', test: (u) => /bench\/apps\//.test(u) },
  {
    part: 'logging (pino)',
    test: (u) =>
      /node_modules\/(pino|sonic-boom|thread-stream|fast-redact|quick-format)|runtime\/src\/logging\//.test(
        u,
      ),
  },
  { part: 'metrics', test: (u) => /runtime\/src\/metrics\//.test(u) },
  { part: 'call records (snapshots)', test: (u) => /runtime\/src\/snapshot\//.test(u) },
  { part: 'XState', test: (u) => /node_modules\/xstate\//.test(u) },
  { part: 'dsl (compiled flow)', test: (u) => /packages\/dsl\//.test(u) },
  { part: 'RxJS', test: (u) => /node_modules\/rxjs\//.test(u) },
  {
    part: 'routing (event stream, session router)',
    test: (u) =>
      /client\/src\/events\/(?!WsTransport)|runtime\/src\/session\/(SessionRouter|machineEventFilter|EventCopyFilter|SharedStreamCopies|CallEventStream)|runtime\/src\/application\//.test(
        u,
      ),
  },
  { part: 'session (runtime)', test: (u) => /runtime\/src\//.test(u) },
  {
    part: 'request path (client REST + undici)',
    test: (u) => /client\/src\/rest\/|node_modules\/undici\//.test(u),
  },
  { part: 'event socket (ws)', test: (u) => /node_modules\/ws\/|client\/src\/events\/WsTransport/.test(u) },
  { part: 'bench harness', test: (u) => /bench\//.test(u) },
  { part: 'other packages', test: (u) => /packages\/|node_modules\//.test(u) },
];
const SPECIAL = new Set(['(garbage collector)', '(program)', '(idle)', '(root)']);

function partOf(stack: readonly ProfileNode[]): string {
  const leaf = stack[0]!;
  if (SPECIAL.has(leaf.callFrame.functionName)) return leaf.callFrame.functionName;
  for (const node of stack) {
    const { url, functionName } = node.callFrame;
    for (const { part, test } of PARTS) if (test(url, functionName)) return part;
  }
  return /^node:/.test(leaf.callFrame.url) ? 'node internals (no library above)' : 'other';
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    calls: { type: 'string' },
    window: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const calls = Number(values.calls);
if (!(calls > 0) || positionals.length !== 1) {
  console.error('usage: cpuBreakdown.ts --calls N FILE.cpuprofile');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const stackCache = new Map<number, string>();
const inCall = new Map<number, boolean>();
const stackOf = (id: number): ProfileNode[] => {
  const out: ProfileNode[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) out.push(byId.get(at)!);
  return out;
};
const CALL_CODE = /runtime\/src\/session\/|node_modules\/xstate\/|bench\/ivr\/BareIvrCall/;
let first = Number.POSITIVE_INFINITY;
let last = 0;
let t = 0;
const times: number[] = [];
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i] ?? 0;
  times.push(t);
  const id = profile.samples[i]!;
  let call = inCall.get(id);
  if (call === undefined) {
    call = stackOf(id).some((n) => CALL_CODE.test(n.callFrame.url));
    inCall.set(id, call);
  }
  if (call) {
    first = Math.min(first, t);
    last = t;
  }
}
if (values.window) {
  // Sample times are µs from the profile's start, on the monotonic clock.
  const start = (profile as Profile & { startTime: number }).startTime;
  const [from, to] = values.window.split(',').map(Number) as [number, number];
  first = from - start;
  last = to - start;
}
const totals = new Map<string, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const at = times[i]!;
  if (at < first || at > last) continue;
  const id = profile.samples[i]!;
  let part = stackCache.get(id);
  if (part === undefined) {
    part = partOf(stackOf(id));
    stackCache.set(id, part);
  }
  const dt = profile.timeDeltas[i + 1] ?? 0;
  totals.set(part, (totals.get(part) ?? 0) + dt / 1000);
}
const busy = [...totals].filter(([p]) => p !== '(idle)').reduce((s, [, ms]) => s + ms, 0);
const rows = [...totals].sort((a, b) => b[1] - a[1]);
if (values.json) {
  console.log(
    JSON.stringify({ calls, windowMs: (last - first) / 1000, busyMs: busy, parts: Object.fromEntries(rows) }),
  );
} else {
  console.log(
    `${positionals[0]}: ${((last - first) / 1e6).toFixed(1)} s with calls, busy ${(busy / 1000).toFixed(1)} s, ${calls} calls`,
  );
  for (const [part, ms] of rows)
    console.log(
      `${part.padEnd(44)} ${(ms / calls).toFixed(4)} ms/call  ${part === '(idle)' ? '' : `${((ms / busy) * 100).toFixed(1)}%`}`,
    );
  console.log(`${'busy total'.padEnd(44)} ${(busy / calls).toFixed(4)} ms/call`);
}
