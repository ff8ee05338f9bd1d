export { ErrorCode, RingflowError } from './RingflowError.ts';
