/**
 * One contact of an outbound campaign: who to call and what their call's flow gets.
 *
 * @example { id: 'c-17', endpoint: 'PJSIP/5550117', timezone: 'America/Chicago', inputs: { name: 'Ada' } }
 */
export interface Contact {
  /** Unique in the campaign: the results name it, and a resumed campaign knows it by it. */
  readonly id: string;
  /** What to dial (`tech/resource`: `PJSIP/5550117`, `Local/5550117@outbound`). */
  readonly endpoint: string;
  /** The contact's time zone (IANA: `Europe/Paris`) for the calling window; default the campaign's. */
  readonly timezone?: string;
  /** The flow's inputs for this contact's call. */
  readonly inputs?: Readonly<Record<string, unknown>>;
}

/**
 * How one attempt went:
 * - `busy`, `noAnswer`, `failed` (unreachable, rejected, the server refused the call): it was
 *   never answered (the hangup cause says which);
 * - `answered`: answered, and the flow said nothing more;
 * - anything the flow's final state says as `output: { outcome: ... }` (`machine`, `human`,
 *   `confirmed`): answered, in the flow's words;
 * - `unknown`: the campaign stopped (or crashed) after dialling and before the call's end was
 *   written; a resumed campaign does not call again (no contact is called twice by accident).
 */
export type ContactOutcome = 'busy' | 'noAnswer' | 'failed' | 'answered' | 'unknown' | (string & {});
