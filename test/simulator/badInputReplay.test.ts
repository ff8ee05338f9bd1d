import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { differenceKind, loadBadInput, replayBadInput } from './replayBadInput.ts';

/**
 * The share of the 2,000 recorded bad requests (fixtures/bad-input-exchanges.jsonl) whose status the
 * simulator answers as the real server did. Raise it when the simulator gets closer; the remaining
 * differences are listed in packages/simulator/README.md.
 */
const MIN_STATUS_AGREEMENT = 1; // 0.8635 before the simulator followed the rules (issue 15)

describe('bad input replayed over the wire', () => {
  it('answers with the statuses of the real server, and refuses with its bodies', async () => {
    const lines = loadBadInput();
    expect(lines).toHaveLength(2000);
    const outcomes = await replayBadInput(lines);
    const differing = outcomes.filter((o) => o.status !== o.line.response.status);
    // The recording keeps the first 300 characters of each reply.
    const sameStatusOtherBody = outcomes.filter(
      (o) => o.status === o.line.response.status && o.body.slice(0, 300) !== o.line.response.body,
    );
    // Refusals must carry the real server's body; successful replies differ by nature (ids,
    // timestamps, the server's build, modules and files: see packages/simulator/README.md).
    const errorBodiesDiffering = sameStatusOtherBody.filter((o) => o.status >= 400);
    const groups = new Map<string, number[]>();
    for (const o of differing) {
      const kind = differenceKind(o);
      groups.set(kind, [...(groups.get(kind) ?? []), o.line.seq]);
    }
    const agreement = (outcomes.length - differing.length) / outcomes.length;
    const summary = [
      `bad-input replay: statuses agree on ${outcomes.length - differing.length}/${outcomes.length} (${(agreement * 100).toFixed(2)}%); same status, other body: ${errorBodiesDiffering.length} refusals, ${sameStatusOtherBody.length - errorBodiesDiffering.length} successes`,
      ...[...groups.entries()]
        .sort((a, b) => b[1].length - a[1].length)
        .map(
          ([kind, seqs]) =>
            `  ${String(seqs.length).padStart(4)}  ${kind}  (seq ${seqs.slice(0, 5).join(', ')}${seqs.length > 5 ? ', ...' : ''})`,
        ),
    ];
    console.log(summary.join('\n'));
    // BAD_INPUT_DUMP=file writes every differing exchange there, to study them.
    const dump = process.env.BAD_INPUT_DUMP;
    if (dump)
      writeFileSync(
        dump,
        [...differing, ...sameStatusOtherBody]
          .map((o) => JSON.stringify({ ...o.line, sim: { status: o.status, body: o.body } }))
          .join('\n'),
      );
    expect(agreement).toBeGreaterThanOrEqual(MIN_STATUS_AGREEMENT);
    expect(
      errorBodiesDiffering.map((o) => ({ seq: o.line.seq, real: o.line.response.body, sim: o.body })),
    ).toEqual([]);
  }, 120_000);
});
