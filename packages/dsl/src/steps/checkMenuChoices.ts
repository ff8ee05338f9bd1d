import type { FlowTransitions } from '../model/transition.ts';
import { transitionList } from '../model/transition.ts';
import { type Diagnostic, diagnostic, type Path } from '../validate/Diagnostic.ts';

/** Menu keys that lead nowhere: no choice at all, or a key whose transitions name no state. */
export function checkMenuChoices(params: { readonly choices?: unknown }, path: Path): Diagnostic[] {
  const out: Diagnostic[] = [];
  const choices = params.choices;
  if (typeof choices !== 'object' || choices === null || Array.isArray(choices)) return out;
  const keys = Object.keys(choices);
  if (keys.length === 0)
    out.push(
      diagnostic(
        'unanswered-menu-key',
        [...path, 'choices'],
        'The menu has no choice: every key is a no-match and the menu can only end exhausted. Add choices ("1": a-state).',
        { severity: 'warning' },
      ),
    );
  for (const [key, value] of Object.entries(choices as Record<string, FlowTransitions>))
    if (value !== null && value !== undefined && transitionList(value).every((t) => t.goto === undefined))
      out.push(
        diagnostic(
          'unanswered-menu-key',
          [...path, 'choices', key],
          `Key "${key}" has no choice: its transition names no state, so pressing it goes on with the next step as if the menu were done. Give it a goto, or remove it so that it counts as a no-match.`,
          { severity: 'warning', target: 'key' },
        ),
      );
  return out;
}
