import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFlow } from '../parseFlow.ts';
import { resolveNode } from '../schema/s.ts';
import { steps } from '../steps/index.ts';
import { formatDiagnostic } from './Diagnostic.ts';

describe('what steps declare for the validator', () => {
  it('checks prompts, media, languages, subflow calls, menu keys, endings and instant states as each step declares', () => {
    const text = readFileSync(new URL('./fixtures/step-knowledge.yaml', import.meta.url), 'utf8');
    const lines = parseFlow(text, 'k.yaml').diagnostics.map(formatDiagnostic);
    expect(lines).toEqual([
      'k.yaml:14:3 warning RF202 no-hangup-path: From state "a" no path leads to a hangup, continue or final state: the call only ends when the caller hangs up. Add a way out (e.g. a timeout to a goodbye state).',
      'k.yaml:16:9 error RF103 missing-field: The play step needs "prompt" (a catalogue name) or "media" (URIs).',
      'k.yaml:16:27 error RF311 unknown-language: The prompt catalogue has no language "de". Languages are: en, fr.',
      'k.yaml:17:9 error RF103 missing-field: The bridgePlay step needs "prompt" (a catalogue name) or "media" (URIs).',
      'k.yaml:18:33 error RF310 unknown-prompt: No prompt named "helo" in the catalogue. Did you mean "hello"?',
      'k.yaml:19:27 warning RF312 prompt-missing-in-language: Prompt "bye" is missing in fr; those callers hear the "en" version.',
      'k.yaml:20:36 error RF103 missing-field: The dial announcement needs "prompt" (a catalogue name) or "media" (URIs).',
      'k.yaml:20:58 error RF311 unknown-language: The prompt catalogue has no language "es". Did you mean "en"?',
      'k.yaml:21:57 error RF310 unknown-prompt: No prompt named "nope" in the catalogue. Prompts are: hello, bye.',
      'k.yaml:22:51 warning RF210 unanswered-menu-key: Key "2" has no choice: its transition names no state, so pressing it goes on with the next step as if the menu were done. Give it a goto, or remove it so that it counts as a no-match.',
      'k.yaml:22:90 error RF310 unknown-prompt: No prompt named "hullo" in the catalogue. Did you mean "hello"?',
      'k.yaml:22:121 error RF310 unknown-prompt: No prompt named "zzz" in the catalogue. Prompts are: hello, bye.',
      'k.yaml:23:26 error RF205 unknown-subflow: No subflow named "helpr". Did you mean "helper"?',
      'k.yaml:24:47 error RF102 wrong-type: Input "n" of subflow "helper" is declared number, found the text "text".',
      'k.yaml:24:53 error RF206 unknown-input: Subflow "helper" has no input "m". Its inputs: n.',
      'k.yaml:25:18 error RF207 missing-input: Subflow "helper" needs input "n" (number).',
      'k.yaml:27:3 warning RF202 no-hangup-path: From state "b" no path leads to a hangup, continue or final state: the call only ends when the caller hangs up. Add a way out (e.g. a timeout to a goodbye state).',
      'k.yaml:33:3 warning RF202 no-hangup-path: From state "c" no path leads to a hangup, continue or final state: the call only ends when the caller hangs up. Add a way out (e.g. a timeout to a goodbye state).',
      'k.yaml:36:3 warning RF201 unreachable-state: State "d" can never be entered: no transition leads to it from "a". Remove it or add a transition to it.',
      'k.yaml:38:3 warning RF202 no-hangup-path: From state "e" no path leads to a hangup, continue or final state: the call only ends when the caller hangs up. Add a way out (e.g. a timeout to a goodbye state).',
      'k.yaml:41:3 warning RF202 no-hangup-path: From state "f" no path leads to a hangup, continue or final state: the call only ends when the caller hangs up. Add a way out (e.g. a timeout to a goodbye state).',
      'k.yaml:42:11 error RF204 eventless-loop: States "e" -> "f" -> "e" pass control to each other without waiting for anything: the flow would loop forever. Add a condition, a step that waits, or a timer.',
    ]);
  });

  it('every step with a prompt field declares where it names sounds', () => {
    for (const [name, definition] of Object.entries(steps)) {
      const node = resolveNode(definition.params.node);
      const hasPrompt = node.kind === 'object' && 'prompt' in node.props;
      expect(hasPrompt ? definition.sounds?.some((s) => s.at.length === 0) : true, name).toBe(true);
    }
  });
});
