import { parseFlow } from '@ringflow/dsl';
import { describe, expect, it } from 'vitest';
import { agentServicesForRun, agentStepsOf } from './agentServicesForRun.ts';

const metrics = { turnLatency: () => {}, interrupted: () => {}, ended: () => {} };

function flow(agentLines: string[]) {
  const text = `
name: line
start: talk
states:
  talk:
    steps:
      - answer
${agentLines.map((l) => `      ${l}`).join('\n')}
      - hangup
`;
  const parsed = parseFlow(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  return parsed.flow;
}

const textAgent = ['- agent: { bot: "ws://127.0.0.1:9100/order-status" }'];
const audioAgent = ['- agent: { bot: "ws://127.0.0.1:9200/echo", protocol: audio }'];

describe("ringflow run's agent services", () => {
  it('finds the agent steps of a flow and their protocols', () => {
    const steps = agentStepsOf(flow([...textAgent, ...audioAgent]));
    expect(steps.count).toBe(2);
    expect([...steps.protocols].sort()).toEqual(['audio', 'text']);
    expect(steps.bots).toEqual(['ws://127.0.0.1:9100/order-status', 'ws://127.0.0.1:9200/echo']);
  });

  it('gives a flow without agent steps nothing', async () => {
    expect(await agentServicesForRun(flow([]), { ariUrl: undefined, metrics })).toEqual({});
  });

  it('needs the server HTTP address for the media sockets', async () => {
    const result = await agentServicesForRun(flow(audioAgent), { ariUrl: undefined, metrics });
    expect(result).toEqual({ problem: expect.stringMatching(/give --server/) });
  });

  it('says what to install when the text relay has no local speech programs', async () => {
    const result = await agentServicesForRun(flow(textAgent), {
      ariUrl: 'http://127.0.0.1:8088/ari',
      metrics,
      path: '/nonexistent',
    });
    expect(result).toEqual({
      problem: expect.stringMatching(
        /text relay .*'espeak-ng'.*'pocketsphinx_continuous'.*apt-get install -y espeak-ng pocketsphinx pocketsphinx-en-us; or give the steps protocol: audio/,
      ),
    });
  });

  it('an audio bot needs no speech programs', async () => {
    const result = await agentServicesForRun(flow(audioAgent), {
      ariUrl: 'http://127.0.0.1:8088/ari',
      metrics,
      path: '/nonexistent',
    });
    expect('problem' in result).toBe(false);
    if ('problem' in result) return;
    expect(result.agents?.connectAudioBot).toBeTypeOf('function');
    expect(result.agents?.speechToText).toBeUndefined();
    expect(result.summary).toBe('agent steps: audio; bots ws://127.0.0.1:9200/echo');
  });
});
