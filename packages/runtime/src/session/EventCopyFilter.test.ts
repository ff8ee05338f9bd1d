import type { StreamEvent } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { EventCopyFilter } from './EventCopyFilter.ts';

const dtmf = (application: string, digit: string, timestamp = '2026-11-22T03:47:12.100+0000') =>
  ({
    type: 'ChannelDtmfReceived',
    timestamp,
    digit,
    duration_ms: 100,
    channel: { id: 'c1' },
    asterisk_id: '02:fc:00:00:00:01',
    application,
  }) as unknown as StreamEvent;

describe('EventCopyFilter', () => {
  it('takes the first copy of an event and refuses the copies addressed to other applications', () => {
    const filter = new EventCopyFilter();
    expect(filter.accept(dtmf('support', '1'))).toBe(true);
    expect(filter.accept(dtmf('sales', '1'))).toBe(false);
    expect(filter.accept(dtmf('other', '1'))).toBe(false);
  });

  it('tells apart events that differ in anything but the application', () => {
    const filter = new EventCopyFilter();
    expect(filter.accept(dtmf('sales', '1'))).toBe(true);
    expect(filter.accept(dtmf('support', '2'))).toBe(true);
    expect(filter.accept(dtmf('support', '1', '2026-11-22T03:47:12.300+0000'))).toBe(true);
  });

  it('lets repeats to the same application through, as the server sent them', () => {
    const filter = new EventCopyFilter();
    expect(filter.accept(dtmf('sales', '1'))).toBe(true);
    expect(filter.accept(dtmf('sales', '1'))).toBe(true);
    expect(filter.accept(dtmf('support', '1'))).toBe(false);
  });

  it('finds a copy that arrives after other events, and forgets beyond its window', () => {
    const filter = new EventCopyFilter(4);
    expect(filter.accept(dtmf('sales', '1'))).toBe(true);
    for (const digit of ['2', '3', '4']) filter.accept(dtmf('sales', digit));
    expect(filter.accept(dtmf('support', '1'))).toBe(false);
    filter.accept(dtmf('sales', '5'));
    expect(filter.size).toBe(4);
    expect(filter.accept(dtmf('support', '1'))).toBe(true);
  });
});
