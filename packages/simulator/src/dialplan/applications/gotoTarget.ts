import type { DialplanLocation, ResolvedLocation } from '../Dialplan.ts';

/**
 * Reads a Goto destination: `priority`, `exten,priority` or `context,exten,priority`, where
 * the priority is a number, a label, or `+n`/`-n` relative to the current priority.
 * Returns a message when the text is not a destination.
 *
 * @example parseGotoTarget('ivr-exits,s,operator', here) // { context: 'ivr-exits', exten: 's', priority: 'operator' }
 */
export function parseGotoTarget(text: string, current: ResolvedLocation): DialplanLocation | string {
  const parts = text.split(/[,|]/).map((p) => p.trim());
  if (parts.length > 3 || parts.some((p) => p === '')) {
    return `"${text}" is not a destination: use priority, exten,priority or context,exten,priority`;
  }
  const priorityText = parts[parts.length - 1]!;
  const exten = parts.length >= 2 ? parts[parts.length - 2]! : current.exten;
  const context = parts.length === 3 ? parts[0]! : current.context;
  const relative = /^([+-])\s*(\d+)$/.exec(priorityText);
  let priority: number | string;
  if (relative) {
    priority = current.priority + (relative[1] === '+' ? 1 : -1) * Number(relative[2]);
  } else if (/^\d+$/.test(priorityText)) {
    priority = Number(priorityText);
  } else {
    priority = priorityText;
  }
  if (typeof priority === 'number' && priority < 1) {
    return `priority ${priorityText} in "${text}" must be a number > 0 or a label`;
  }
  return { context, exten, priority };
}
