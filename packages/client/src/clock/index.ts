export type { Clock, TimerHandle } from './Clock.ts';
export { systemClock } from './Clock.ts';
export { VirtualClock } from './VirtualClock.ts';
export { formatTimestamp } from './formatTimestamp.ts';
