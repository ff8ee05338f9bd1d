/**
 * What each call actor under way has started on the server (a playback's id, a recording's name,
 * a dialled channel's id), by the actor's id: written in the call's record, so that an actor
 * restarted in a new process awaits what it had started instead of starting it again (a prompt
 * played twice, a second call placed). A note lives from the moment its actor picks the id until
 * the actor settles or is stopped; a restored actor takes its note once.
 *
 * Actor ids are the machine's invoke ids (`invoke: { id }`, or XState's default made from the
 * state's path), the same in every process running the same machine. Two actors invoked with the
 * same id by different machines of one call would share a note: give such invokes their own ids.
 */
export class ResumeNotes {
  /** Made on the first note: most calls' steps never note anything. */
  #notes: Map<string, unknown> | undefined;

  /** The actor `actorId` started something the server will report on: `note` says what. */
  note(actorId: string, note: unknown): void {
    this.#notes ??= new Map();
    this.#notes.set(actorId, note);
  }

  /** The actor settled or was stopped: nothing of its own is under way any more. */
  forget(actorId: string): void {
    this.#notes?.delete(actorId);
  }

  /** For an actor restarted by a restore: what it had started, once (then forgotten). */
  take(actorId: string): unknown {
    const note = this.#notes?.get(actorId);
    this.#notes?.delete(actorId);
    return note;
  }

  get size(): number {
    return this.#notes?.size ?? 0;
  }

  /** Plain data for the call's record (undefined when nothing is under way). */
  persist(): Readonly<Record<string, unknown>> | undefined {
    return this.#notes?.size ? Object.fromEntries(this.#notes) : undefined;
  }

  /** A record's notes, in a new process. */
  restore(notes: Readonly<Record<string, unknown>> | undefined): void {
    for (const [actorId, note] of Object.entries(notes ?? {})) this.note(actorId, note);
  }
}
