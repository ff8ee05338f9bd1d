import { describe, expect, it } from 'vitest';
import { ChangeListeners } from './ChangeListeners.ts';

describe('ChangeListeners', () => {
  it('tells listeners in order and stops telling removed ones', () => {
    const changes = new ChangeListeners<number>();
    const seen: string[] = [];
    const offA = changes.add((n) => seen.push(`a${n}`));
    changes.add((n) => seen.push(`b${n}`));
    changes.emit(1);
    offA();
    offA();
    changes.emit(2);
    expect(seen).toEqual(['a1', 'b1', 'b2']);
    expect(changes.size).toBe(1);
  });

  it('keeps the same function added twice as two listeners', () => {
    const changes = new ChangeListeners<number>();
    let calls = 0;
    const listener = () => calls++;
    const off = changes.add(listener);
    changes.add(listener);
    changes.emit(0);
    off();
    changes.emit(0);
    expect(calls).toBe(3);
  });

  it('tells everyone even when a listener throws, then rethrows', () => {
    const changes = new ChangeListeners<string>();
    const seen: string[] = [];
    changes.add(() => {
      throw new Error('first');
    });
    changes.add((s) => seen.push(s));
    expect(() => changes.emit('x')).toThrow('first');
    expect(seen).toEqual(['x']);
    changes.add(() => {
      throw new Error('second');
    });
    expect(() => changes.emit('y')).toThrow(AggregateError);
    expect(seen).toEqual(['x', 'y']);
  });
});
