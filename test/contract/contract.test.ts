import { afterAll, describe, expect, it } from 'vitest';
import { scenarios } from './scenarios/index.ts';
import { contractTargets } from './targets.ts';

/**
 * One suite, every target (as Hono runs one router suite against every router): the in-process
 * simulator, the simulator over the wire, REST over the event socket, the server dialling the
 * application (persistent and per call, over sockets and in process), and a real server when
 * RINGFLOW_ARI_URL, RINGFLOW_ARI_USER and RINGFLOW_ARI_PASSWORD are set. The targets are chosen
 * at load time.
 */
const targets = contractTargets();
/** Transcripts of the simulated targets, per scenario, to prove the transports agree. */
const transcripts = new Map<string, Map<string, string[]>>();

for (const target of targets) {
  describe(`contract: ${target.name}`, () => {
    for (const scenario of scenarios) {
      const skip = target.skips?.(scenario);
      if (skip !== undefined) {
        it.skip(`${scenario.name} (no equivalent here: ${skip})`, () => {});
        continue;
      }
      it(scenario.name, async () => {
        const session = await target.start();
        try {
          await scenario.run(session);
        } finally {
          await session.close();
        }
        if (target.simulated) {
          const byTarget = transcripts.get(scenario.name) ?? new Map<string, string[]>();
          byTarget.set(target.name, session.transcript());
          transcripts.set(scenario.name, byTarget);
        }
      });
    }
  });
}

describe('contract: the simulated transports agree', () => {
  for (const scenario of scenarios) {
    const simulated = targets
      .filter((t) => t.simulated && t.skips?.(scenario) === undefined)
      .map((t) => t.name);
    it(scenario.name, () => {
      const byTarget = transcripts.get(scenario.name);
      // A scenario that failed on a target has no transcript there; its own test reports why.
      expect(byTarget && [...byTarget.keys()]).toEqual(simulated);
      const [first, ...others] = simulated;
      for (const other of others) {
        expect(byTarget?.get(other), `${other} differs from ${first}`).toEqual(byTarget?.get(first!));
      }
    });
  }
  afterAll(() => transcripts.clear());
});
