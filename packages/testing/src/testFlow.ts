import type { Flow } from '@ringflow/dsl';
import { loadFlowForTest, testCalls } from './CallScenario.ts';
import type { FlowTestCall } from './FlowTestCall.ts';
import type { TestCallOptions } from './TestCallOptions.ts';

/**
 * Starts one call running a flow on the in-process simulator, in virtual time, and returns it for
 * the test to drive and check (a scenario of one call named `caller`; see {@link testCalls} for
 * several). `flow` is a loaded flow (`loadFlowFile`, `defineFlow`) or the path of a YAML flow file.
 *
 * @example
 * import { testFlow } from '@ringflow/testing';
 * const call = await testFlow(await loadFlowFile('flows/ivr.yaml'), { caller: '5551234' });
 * await call.wait('2s');
 * await call.press('3');
 * call.expectVisited('voicemail');
 * await call.expectEnd({ status: 'completed', within: '3m' });
 * await call.close();
 */
export async function testFlow(flow: Flow | string, options: TestCallOptions = {}): Promise<FlowTestCall> {
  const loaded = typeof flow === 'string' ? await loadFlowForTest(flow) : flow;
  const { caller, callerName, extension, language, variables, args, channelId, inputs, ...world } = options;
  const call = {
    ...(caller !== undefined ? { caller } : {}),
    ...(callerName !== undefined ? { callerName } : {}),
    ...(extension !== undefined ? { extension } : {}),
    ...(language !== undefined ? { language } : {}),
    ...(variables !== undefined ? { variables } : {}),
    ...(args !== undefined ? { args } : {}),
    ...(channelId !== undefined ? { channelId } : {}),
    ...(inputs !== undefined ? { inputs } : {}),
  };
  const scenario = await testCalls(loaded, { ...world, calls: { caller: call } });
  return scenario.call('caller');
}
