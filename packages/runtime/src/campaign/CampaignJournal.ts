import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { ContactOutcome } from './Contact.ts';

/**
 * One line of a campaign's results, written as it goes:
 * - `dialling`: an attempt is about to be placed (written before the request: a campaign that
 *   stops right after never calls that contact again);
 * - `ended`: how the attempt went, and what follows: `retryAt` (epoch ms) or `final: true`.
 */
export type JournalEntry =
  | {
      readonly type: 'dialling';
      readonly contact: string;
      readonly attempt: number;
      readonly at: number;
    }
  | {
      readonly type: 'ended';
      readonly contact: string;
      readonly attempt: number;
      readonly at: number;
      readonly outcome: ContactOutcome;
      readonly status?: string;
      readonly by?: string;
      readonly cause?: number;
      readonly durationMs?: number;
      readonly retryAt?: number;
      readonly final?: true;
    };

/** Where a campaign keeps its results: read once when it starts, appended to as it goes. */
export interface CampaignJournal {
  /** The entries written so far, oldest first (a resumed campaign reads them). */
  entries(): readonly JournalEntry[];
  /** Writes one entry durably before returning. */
  append(entry: JournalEntry): void;
}

/** The results in memory (tests, embedding). */
export class MemoryCampaignJournal implements CampaignJournal {
  readonly written: JournalEntry[] = [];

  constructor(entries: readonly JournalEntry[] = []) {
    this.written.push(...entries);
  }

  entries(): readonly JournalEntry[] {
    return this.written;
  }

  append(entry: JournalEntry): void {
    this.written.push(entry);
  }
}

/**
 * The results as a JSON Lines file (one entry per line), appended synchronously so each line is
 * on disk before the call it announces is placed. A line cut short by a crash is skipped when read.
 */
export class FileCampaignJournal implements CampaignJournal {
  private readonly loaded: JournalEntry[] = [];
  /** The file ends in a line cut short: the next entry starts on a line of its own. */
  private cutShort = false;

  constructor(readonly path: string) {
    if (!existsSync(path)) return;
    const text = readFileSync(path, 'utf8');
    this.cutShort = text !== '' && !text.endsWith('\n');
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        const entry = JSON.parse(line) as JournalEntry;
        if (
          entry &&
          typeof entry.contact === 'string' &&
          (entry.type === 'dialling' || entry.type === 'ended')
        )
          this.loaded.push(entry);
      } catch (error) {
        // Only the last line can be cut short (a crash mid-write); anything else is not ours.
        if (index < lines.length - 2 || line.endsWith('}'))
          throw new Error(`${path}:${index + 1}: not a campaign result line (${(error as Error).message})`);
      }
    });
  }

  entries(): readonly JournalEntry[] {
    return this.loaded;
  }

  append(entry: JournalEntry): void {
    appendFileSync(this.path, `${this.cutShort ? '\n' : ''}${JSON.stringify(entry)}\n`);
    this.cutShort = false;
  }
}
