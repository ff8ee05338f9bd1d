import { describe, expect, it } from 'vitest';
import { linkSignals, SCOPE_ENDED } from './linkSignals.ts';

describe('linkSignals', () => {
  it('aborts with the reason of the first source that aborts, and lets go of the others', () => {
    const a = new AbortController();
    const b = new AbortController();
    const link = linkSignals(a.signal, b.signal);
    expect(link.signal.aborted).toBe(false);
    b.abort('b went');
    expect(link.signal.reason).toBe('b went');
    a.abort('a went');
    expect(link.signal.reason).toBe('b went');
  });

  it('is aborted at once when a source already is', () => {
    const a = new AbortController();
    a.abort('early');
    const link = linkSignals(new AbortController().signal, a.signal);
    expect(link.signal.aborted).toBe(true);
    expect(link.signal.reason).toBe('early');
  });

  it('aborts on its own with the shared scope reason, and then ignores its sources', () => {
    const a = new AbortController();
    const link = linkSignals(a.signal);
    let heard = 0;
    link.signal.addEventListener('abort', () => heard++);
    link.abort();
    a.abort('later');
    expect(link.signal.reason).toBe(SCOPE_ENDED);
    expect(heard).toBe(1);
  });

  it('after dispose, a source aborting no longer reaches it', () => {
    const a = new AbortController();
    const link = linkSignals(a.signal);
    link.dispose();
    a.abort('gone');
    expect(link.signal.aborted).toBe(false);
  });
});
