import type { Clock, TimerHandle } from '@ringflow/client';
import type { OriginateOptions } from '../application/ApplicationOptions.ts';
import type { CallSession } from '../session/CallSession.ts';
import { type CallWindow, isOpen, nextOpening } from './CallWindow.ts';
import type { MetricsRegistry } from '../metrics/MetricsRegistry.ts';
import type { CampaignJournal, JournalEntry } from './CampaignJournal.ts';
import { type CampaignMetrics, campaignMetrics } from './CampaignMetrics.ts';
import type { Contact, ContactOutcome } from './Contact.ts';
import { type ContactProgress, NOT_CALLED, progressAfter, progressFromJournal } from './ContactProgress.ts';
import { contactOutcome } from './contactOutcome.ts';
import { type RetryRules, retryDelay } from './RetryRules.ts';

/** How fast a campaign dials: at most `perSecond` new calls a second, and `atOnce` calls up at a time. */
export interface CampaignPace {
  readonly perSecond: number;
  readonly atOnce: number;
}

/** What a campaign needs of the application: placing a call that runs its flow. */
export interface CampaignDialler {
  originate(options: OriginateOptions): Promise<CallSession>;
}

export interface CampaignOptions {
  readonly dialler: CampaignDialler;
  readonly contacts: readonly Contact[];
  readonly pace: CampaignPace;
  /** When contacts may be called (in their time zones); any time when absent. */
  readonly window?: CallWindow;
  /** Retries by outcome; an outcome without a rule is final. */
  readonly retry?: RetryRules;
  /** The results: read when the campaign starts (resume), written as it goes. */
  readonly journal: CampaignJournal;
  /**
   * The originate request's other parameters (callerId, timeout, app, machine...). Each call
   * carries its contact's id as its one Stasis argument (`call.args[0]` in a flow).
   */
  readonly originate?: Omit<OriginateOptions, 'endpoint' | 'appArgs'>;
  readonly clock: Clock;
  /**
   * Where its figures go (`ringflow_campaign_*`, labelled `campaign`): the application's registry
   * (`app.metrics.registry`) serves them at `/metrics` with the rest. None when absent.
   */
  readonly metrics?: { readonly registry: MetricsRegistry; readonly campaign: string };
}

/** Where a campaign stands: contacts by phase, and the outcomes of the contacts done. */
export interface CampaignSummary {
  readonly contacts: number;
  readonly waiting: number;
  readonly dialling: number;
  readonly done: number;
  /** Final outcomes of the contacts done (`{ answered: 40, busy: 3, machine: 5 }`). */
  readonly outcomes: Readonly<Record<string, number>>;
  /** Calls placed by this run (a resumed campaign counts from its restart). */
  readonly callsPlaced: number;
}

/**
 * Dials a list of contacts into a flow: at a pace (calls a second, calls at once), inside a
 * calling window in each contact's time zone, trying again by outcome (busy, no answer, machine...)
 * after a delay, and writing each attempt and its outcome as it goes. Started on a journal that
 * has results already, it resumes: contacts done stay done, retries keep their times, and a
 * contact whose call was in progress when the campaign stopped is not called again (`unknown`).
 *
 * @example
 * const campaign = new Campaign({ dialler: app, contacts, pace: { perSecond: 2, atOnce: 10 },
 *   retry: { busy: { times: 2, afterMs: 600_000 } }, journal: new FileCampaignJournal('results.jsonl'), clock });
 * const summary = await campaign.run();
 */
export class Campaign {
  private readonly progress = new Map<string, ContactProgress>();
  private readonly contacts: readonly Contact[];
  private inFlight = 0;
  private lastPlacedAt = Number.NEGATIVE_INFINITY;
  private placed = 0;
  private timer: TimerHandle | undefined;
  private stopping = false;
  private finished: ((summary: CampaignSummary) => void) | undefined;
  private readonly metrics: (CampaignMetrics & { readonly campaign: string }) | undefined;

  constructor(private readonly options: CampaignOptions) {
    const seen = new Set<string>();
    for (const contact of options.contacts) {
      if (seen.has(contact.id))
        throw new Error(`contact id "${contact.id}" is given twice: ids must be unique`);
      seen.add(contact.id);
    }
    if (!(options.pace.perSecond > 0))
      throw new Error(`pace.perSecond must be above 0 (got ${options.pace.perSecond})`);
    if (!(options.pace.atOnce >= 1))
      throw new Error(`pace.atOnce must be at least 1 (got ${options.pace.atOnce})`);
    this.contacts = options.contacts;
    if (options.metrics) {
      if (options.metrics.campaign === '') throw new Error('metrics.campaign: give the campaign a name');
      this.metrics = { ...campaignMetrics(options.metrics.registry), campaign: options.metrics.campaign };
      this.metrics.inFlight.set(0, { campaign: options.metrics.campaign });
    }
  }

  /** Runs until every contact is done (or `stop()` and the calls in progress have ended). */
  run(): Promise<CampaignSummary> {
    const fromJournal = progressFromJournal(this.options.journal.entries());
    const now = this.options.clock.now();
    for (const contact of this.contacts)
      this.progress.set(contact.id, fromJournal.get(contact.id) ?? NOT_CALLED);
    // A call in progress when the campaign stopped may have been answered: it is written as
    // `unknown`, final, and the contact is not called again.
    for (const contact of this.contacts) {
      const p = this.progress.get(contact.id);
      if (p?.phase === 'dialling')
        this.record({
          type: 'ended',
          contact: contact.id,
          attempt: p.attempts.length + 1,
          at: now,
          outcome: 'unknown',
          final: true,
        });
    }
    return new Promise((resolve) => {
      this.finished = resolve;
      this.next();
    });
  }

  /** Places no new call; `run()` resolves once the calls in progress have ended. */
  stop(): void {
    this.stopping = true;
    this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.finishIfDone();
  }

  summary(): CampaignSummary {
    let waiting = 0;
    let dialling = 0;
    let done = 0;
    const outcomes: Record<string, number> = {};
    for (const p of this.progress.values()) {
      if (p.phase === 'waiting') waiting++;
      else if (p.phase === 'dialling') dialling++;
      else {
        done++;
        const last = p.attempts.at(-1) ?? 'unknown';
        outcomes[last] = (outcomes[last] ?? 0) + 1;
      }
    }
    return { contacts: this.contacts.length, waiting, dialling, done, outcomes, callsPlaced: this.placed };
  }

  /** Dials whoever is due now, as the pace allows, then sleeps until the next one is. */
  private next(): void {
    this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.finishIfDone() || this.stopping) return;
    const { clock, pace } = this.options;
    while (this.inFlight < pace.atOnce) {
      const now = clock.now();
      const paceReadyAt = this.lastPlacedAt + 1000 / pace.perSecond;
      const { contact, dueAt } = this.earliestDue(now);
      if (!contact || dueAt === undefined) return; // nothing left to dial: the last calls' ends finish it
      const at = Math.max(dueAt, paceReadyAt);
      if (at > now) {
        this.timer = clock.setTimeout(() => this.next(), at - now);
        return;
      }
      this.dial(contact, now);
    }
  }

  /** The waiting contact due first (its retry time, and its window's opening), list order on ties. */
  private earliestDue(now: number): { contact?: Contact; dueAt?: number } {
    const { window } = this.options;
    const openings = new Map<string, number | undefined>();
    let best: { contact?: Contact; dueAt?: number } = {};
    for (const contact of this.contacts) {
      const p = this.progress.get(contact.id);
      if (p?.phase !== 'waiting') continue;
      let dueAt = Math.max(p.dueAt, now);
      if (window) {
        const zone = contact.timezone ?? window.timezone ?? 'UTC';
        const key = `${zone}@${dueAt}`;
        if (!openings.has(key))
          openings.set(key, isOpen(window, dueAt, zone) ? dueAt : nextOpening(window, dueAt, zone));
        const opening = openings.get(key);
        if (opening === undefined) continue; // a window with no days never opens
        dueAt = opening;
      }
      if (best.dueAt === undefined || dueAt < best.dueAt) best = { contact, dueAt };
      if (dueAt <= now) break; // due now: the first in list order goes
    }
    return best;
  }

  private dial(contact: Contact, now: number): void {
    const before = this.progress.get(contact.id) ?? NOT_CALLED;
    const attempt = before.attempts.length + 1;
    this.record({ type: 'dialling', contact: contact.id, attempt, at: now });
    this.inFlight++;
    this.metrics?.inFlight.set(this.inFlight, { campaign: this.metrics.campaign });
    this.placed++;
    this.lastPlacedAt = now;
    const { originate } = this.options;
    this.options.dialler
      .originate({ ...originate, endpoint: contact.endpoint, appArgs: contact.id })
      .then((session) => session.done.then(() => session))
      .then(
        (session) => {
          const ended = session.result;
          const outcome: ContactOutcome = ended ? contactOutcome(ended) : 'unknown';
          this.attemptEnded(contact, attempt, outcome, {
            ...(ended ? { status: ended.status, by: ended.by, durationMs: ended.durationMs } : {}),
            ...(ended?.cause !== undefined ? { cause: ended.cause } : {}),
          });
        },
        // The server refused the call (no such endpoint, no channel): it failed at once.
        () => this.attemptEnded(contact, attempt, 'failed', {}),
      );
  }

  private attemptEnded(
    contact: Contact,
    attempt: number,
    outcome: ContactOutcome,
    details: { status?: string; by?: string; cause?: number; durationMs?: number },
  ): void {
    this.inFlight--;
    this.metrics?.inFlight.set(this.inFlight, { campaign: this.metrics.campaign });
    this.metrics?.attempts.inc({ campaign: this.metrics.campaign, outcome });
    const now = this.options.clock.now();
    const earlier = (this.progress.get(contact.id) ?? NOT_CALLED).attempts;
    const delay = retryDelay(this.options.retry ?? {}, outcome, (o) => earlier.filter((x) => x === o).length);
    this.record({
      type: 'ended',
      contact: contact.id,
      attempt,
      at: now,
      outcome,
      ...details,
      ...(delay !== undefined ? { retryAt: now + delay } : { final: true }),
    });
    this.next();
  }

  /** Writes an entry (before it takes effect) and moves the contact on. */
  private record(entry: JournalEntry): void {
    this.options.journal.append(entry);
    if (entry.type === 'ended' && entry.final)
      this.metrics?.contacts.inc({ campaign: this.metrics.campaign, outcome: entry.outcome });
    this.progress.set(entry.contact, progressAfter(this.progress.get(entry.contact) ?? NOT_CALLED, entry));
  }

  private finishIfDone(): boolean {
    if (this.inFlight > 0) return false;
    const allDone = [...this.progress.values()].every((p) => p.phase === 'done');
    if (!allDone && !this.stopping) return false;
    const finished = this.finished;
    this.finished = undefined;
    finished?.(this.summary());
    return true;
  }
}
