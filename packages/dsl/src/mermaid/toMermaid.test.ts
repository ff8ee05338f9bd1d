import { describe, expect, it } from 'vitest';
import { loadFlowFile } from '../parseFlow.ts';
import { toMermaid } from './toMermaid.ts';

describe('toMermaid', () => {
  it('draws flows/ivr.yaml as a state diagram with labelled transitions', async () => {
    const flow = await loadFlowFile(new URL('../../../../flows/ivr.yaml', import.meta.url).pathname);
    const text = toMermaid(flow);
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('stateDiagram-v2');
    expect(lines).toContain('  [*] --> greet');
    expect(lines).toContain('  greet --> main_menu : [isOpen(now, input.openingHours, input.timezone)]');
    expect(lines).toContain('  greet --> closed : otherwise');
    expect(lines).toContain('  main_menu --> sales_menu : menu 1');
    expect(lines).toContain('  main_menu --> operator : menu exhausted');
    expect(lines).toContain('  operator --> operator_busy : dial busy');
    expect(lines).toContain('  sales_menu --> main_menu : menu *');
    expect(lines).toContain('  goodbye --> [*]');
    expect(lines).toContain('  main_menu : menu 0/1/2/3');
    expect(lines).toContain('  note right of caller_left : on hangup from any state');
    // Every node that is a target is declared.
    for (const line of lines) {
      const m = /^ {2}(\w+) --> (\w+)/.exec(line);
      if (m) expect(text).toContain(`as ${m[2]}\n`);
    }
  });
});
