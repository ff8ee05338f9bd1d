export { ErrorCode, RingflowError } from './RingflowError.ts';
export { HttpError } from './HttpError.ts';
export type { HttpErrorDetails } from './HttpError.ts';
export { InvalidParamsError } from './InvalidParamsError.ts';
export { isResourceGone } from './isResourceGone.ts';
export { isCallGone, markCallGone } from './callGone.ts';
