import { describe, expect, it } from 'vitest';
import { loadFlowFile } from '../packages/dsl/src/parseFlow.ts';
import { runFlowOnSimulator } from '../packages/dsl/src/testing/runFlowOnSimulator.ts';

const flow = await loadFlowFile(new URL('./ivr.yaml', import.meta.url).pathname);

describe('flows/ivr.yaml on the simulator', () => {
  it('explore', async () => {
    const run = await runFlowOnSimulator(flow);
    await run.clock.advance(20_000);
    console.log(run.visited());
    console.log(
      run
        .requests()
        .map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)}`)
        .join('\n'),
    );
    await run.press('3');
    await run.clock.advance(60_000);
    console.log(run.visited(), run.output(), run.session()?.machine?.getSnapshot().context.error);
    console.log(
      run
        .requests()
        .map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)}`)
        .join('\n'),
    );
    await run.close();
    expect(true).toBe(true);
  });
});
