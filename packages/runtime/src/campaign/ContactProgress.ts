import type { ContactOutcome } from './Contact.ts';
import type { JournalEntry } from './CampaignJournal.ts';

/**
 * Where one contact stands, rebuilt from the campaign's results: `waiting` (to be called at
 * `dueAt`, or as soon as the pace allows), `dialling` (a call in progress), `done` (its last
 * outcome was final).
 */
export type ContactProgress =
  | { readonly phase: 'waiting'; readonly attempts: readonly ContactOutcome[]; readonly dueAt: number }
  | { readonly phase: 'dialling'; readonly attempts: readonly ContactOutcome[] }
  | { readonly phase: 'done'; readonly attempts: readonly ContactOutcome[] };

export const NOT_CALLED: ContactProgress = { phase: 'waiting', attempts: [], dueAt: 0 };

/** The next progress of a contact on one of its results (the campaign's one transition function). */
export function progressAfter(progress: ContactProgress, entry: JournalEntry): ContactProgress {
  if (entry.type === 'dialling') return { phase: 'dialling', attempts: progress.attempts };
  const attempts = [...progress.attempts, entry.outcome];
  if (entry.final || entry.retryAt === undefined) return { phase: 'done', attempts };
  return { phase: 'waiting', attempts, dueAt: entry.retryAt };
}

/**
 * Every contact's progress from the results written so far. A contact left `dialling` had its
 * call in progress when the campaign stopped (see `Campaign.run`).
 */
export function progressFromJournal(entries: readonly JournalEntry[]): Map<string, ContactProgress> {
  const progress = new Map<string, ContactProgress>();
  for (const entry of entries)
    progress.set(entry.contact, progressAfter(progress.get(entry.contact) ?? NOT_CALLED, entry));
  return progress;
}
