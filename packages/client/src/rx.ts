/**
 * The RxJS values the client uses, each from its own module. `import { Subject } from 'rxjs'`
 * loads the whole library (its entry point requires ~400 CommonJS files): +6 MiB of resident
 * memory at start for an application, against +0.4 MiB for these few (bench/RESULTS.md, issue
 * 33, memory). They are the very classes and functions the `rxjs` entry point re-exports (it
 * requires these files), so applications that import `rxjs` get the same `Subject` and
 * `Observable`. Types still come from `rxjs` (`import type`: nothing is loaded).
 *
 * @example
 * import { Subject } from '../rx.ts';
 * import type { Observable } from 'rxjs';
 */
export { BehaviorSubject } from 'rxjs/internal/BehaviorSubject';
export { filter } from 'rxjs/internal/operators/filter';
export { Subject } from 'rxjs/internal/Subject';
