/**
 * A `--import` preload that records the URL of every module the process loads, one per line, in
 * the file named by RINGFLOW_LOADED_MODULES (module resolve hooks, node:module `register`).
 */
const hooks = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.RINGFLOW_LOADED_MODULES, resolved.url + '\\n');
  return resolved;
}`;

/** The `--import` argument that installs the recorder in a child process. */
export const RECORD_LOADED_MODULES = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`,
)}`;
