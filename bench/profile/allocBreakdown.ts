/**
 * Splits a sampling allocation profile (`.heapprofile`: `bench/runtime-alone.ts --alloc-profile
 * FILE`, or `BENCH_ALLOC_PROFILE=DIR` for the bench's application children) into what each part
 * of the code allocates per call, and the sites that allocate most. Each sampled allocation is
 * charged to the first frame, from the allocating one up, in a known part; V8's builtins (a `Set`,
 * a `Map`, an array grown by `push`, `Object.assign`...) have no script, so what they allocate
 * goes to the code that called them. Sites are the allocating function with a script (file and
 * line), for the same reason.
 *
 *   npx tsx bench/profile/allocBreakdown.ts --calls 20000 [--sites 30] FILE.heapprofile
 *
 * Prints KiB per call by part, then the top sites in bytes per call.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/** Parts, first match wins; tested against a frame's `url`. */
const PARTS: readonly { readonly part: string; readonly test: RegExp }[] = [
  { part: 'bench harness', test: /bench\// },
  { part: 'XState', test: /node_modules\/xstate\// },
  { part: 'RxJS', test: /node_modules\/rxjs\// },
  { part: 'logging (pino)', test: /node_modules\/pino|runtime\/(src|dist)\/logging\// },
  { part: 'metrics', test: /runtime\/(src|dist)\/metrics\/|node_modules\/prom-client/ },
  { part: 'dsl', test: /packages\/dsl\// },
  { part: 'runtime', test: /packages\/runtime\// },
  { part: 'client', test: /packages\/client\// },
  { part: 'other', test: /./ },
];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { calls: { type: 'string' }, sites: { type: 'string', default: '30' } },
});
const calls = Number(values.calls);
if (!(calls > 0) || positionals.length !== 1) {
  console.error('usage: allocBreakdown.ts --calls N [--sites 30] FILE.heapprofile');
  process.exit(2);
}
const { head } = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as { head: HeapNode };

const parts = new Map<string, number>();
const sites = new Map<string, number>();
let total = 0;
const shortUrl = (url: string) => url.replace(/^.*\/(node_modules|packages|bench)\//, '$1/');

/** Walks the tree with the stack from the root; `stack` holds the frames with a script. */
function visit(node: HeapNode, stack: HeapNode['callFrame'][]): void {
  const withScript = node.callFrame.url ? [...stack, node.callFrame] : stack;
  if (node.selfSize > 0) {
    total += node.selfSize;
    const frame = withScript.at(-1);
    const part = frame ? (PARTS.find((p) => p.test.test(frame.url))?.part ?? 'other') : '(no script)';
    parts.set(part, (parts.get(part) ?? 0) + node.selfSize);
    const site = frame
      ? `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}` +
        (node.callFrame.url ? '' : ` > ${node.callFrame.functionName || node.callFrame.url}`)
      : node.callFrame.functionName;
    sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
  }
  for (const child of node.children) visit(child, withScript);
}
visit(head, []);

console.log(
  `${positionals[0]}: ${(total / calls / 1024).toFixed(1)} KiB allocated per call (${calls} calls)`,
);
for (const [part, bytes] of [...parts].sort((a, b) => b[1] - a[1]))
  console.log(`  ${part.padEnd(20)} ${(bytes / calls / 1024).toFixed(2).padStart(7)} KiB/call`);
console.log('sites (bytes per call):');
for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, Number(values.sites)))
  console.log(`  ${(bytes / calls).toFixed(0).padStart(7)}  ${site}`);
