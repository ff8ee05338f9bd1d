import { resolveValue, scopeOf } from '../compile/FlowContext.ts';
import { effect, failureData } from '../compile/effects.ts';
import { s } from '../schema/s.ts';
import { diagnostic } from '../validate/Diagnostic.ts';
import { didYouMean } from '../validate/suggest.ts';
import { DONE, FAILED } from './restStep.ts';
import { defineStep, stepParams } from './StepDefinition.ts';

/**
 * queueAgent: logs an agent of a queue in or out, pauses or resumes it (an agent calling a
 * "*45" extension, a supervisor's flow). The queue changes at once, and the agent's status is
 * published as the device state `Stasis:queue-<queue>-<endpoint>` (available: NOT_INUSE, paused:
 * ONHOLD, logged out: UNAVAILABLE), so it is real state on the server that phones and
 * dashboards can watch.
 * @example
 *   - queueAgent: { queue: support, agent: { expr: "'PJSIP/' + call.caller.number" }, action: pause }
 */
export const queueAgentStep = defineStep({
  name: 'queueAgent',
  description: 'Logs a queue agent in or out, or pauses / resumes it.',
  params: stepParams(
    {
      queue: s.string({ description: "The queue: one of the flow's queues (queues:)." }),
      agent: s.value(
        s.string({
          description: 'The agent: its endpoint, e.g. PJSIP/alice.',
          pattern: /^[^/\s]+\/\S+$/,
          patternHint: 'an endpoint like PJSIP/alice',
        }),
      ),
      action: s.enum(['login', 'logout', 'pause', 'unpause'], { description: 'What to do.' }),
    },
    'Changes the status of a queue agent.',
  ),
  bare: false,
  outcomes: [DONE, FAILED],
  label: (p) => `queueAgent ${p.action}`,
  check: (p, path, { queues }) =>
    typeof p.queue !== 'string' || queues.includes(p.queue)
      ? []
      : [
          diagnostic(
            'unknown-queue',
            [...path, 'queue'],
            `No queue named "${p.queue}".${didYouMean(p.queue, queues) || ' Define it under queues:.'}`,
          ),
        ],
  compile: (p, build) => {
    const settings = build.flow.queue(p.queue);
    if (!settings) throw new Error(`queue "${p.queue}" is not defined under queues:`);
    return {
      effect: effect(
        async (args) => {
          const { host } = args.context;
          if (!host.queue) throw new Error('this flow runs without call queues (its host has no queue())');
          const agent = String(resolveValue(p.agent, scopeOf(args.context, args.event)));
          if (!/^[^/\s]+\/\S+$/.test(agent))
            throw new Error(`queueAgent: agent must be an endpoint like PJSIP/alice, got "${agent}"`);
          const status = host.queue(p.queue, settings).agent(agent, p.action);
          await host.ari.deviceStates.update({ deviceName: status.device, deviceState: status.state });
        },
        { onDone: build.exit('done'), onError: build.exit('failed', failureData) },
      ),
    };
  },
});
