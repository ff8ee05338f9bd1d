import type { StreamEvent } from '@ringflow/client';
import { Observable, Subject } from '../rx.ts';

/**
 * The RxJS stream of one call's events (`call.events$`): every event about the call's resources,
 * completed when the call ends. The subject behind it is made when the first subscriber comes
 * (most calls' machines never subscribe), and subscribers are counted for leak checks.
 */
export class CallEventStream {
  private subject: Subject<StreamEvent> | undefined;
  private observable: Observable<StreamEvent> | undefined;
  private subscribers = 0;
  private completed = false;

  /** Subscribers right now. */
  get subscriptions(): number {
    return this.subscribers;
  }

  /** The stream; a subscriber that comes after the end is completed at once. */
  get events$(): Observable<StreamEvent> {
    this.observable ??= new Observable<StreamEvent>((subscriber) => {
      if (this.completed) {
        subscriber.complete();
        return;
      }
      this.subject ??= new Subject<StreamEvent>();
      this.subscribers++;
      const inner = this.subject.subscribe(subscriber);
      return () => {
        this.subscribers--;
        inner.unsubscribe();
      };
    });
    return this.observable;
  }

  next(event: StreamEvent): void {
    this.subject?.next(event);
  }

  /** The call ended: every subscriber is completed. */
  complete(): void {
    this.completed = true;
    this.subject?.complete();
  }
}
