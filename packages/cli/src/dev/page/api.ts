/**
 * The page's requests. They are relative (`api/feed`), so the page works wherever it is mounted
 * (`/` for ringflow dev, `/console/` for the live view). A failed request's `error` is shown by
 * whoever asked (see Notice).
 */

import type { ConsoleRequests } from '../consoleRequests.ts';

/**
 * POSTs `body` to `api/<path>` and answers the JSON reply (`{ error }` when refused). The paths and
 * their bodies are the server's (../consoleRequests.ts).
 */
export async function post<T = unknown, P extends keyof ConsoleRequests = keyof ConsoleRequests>(
  path: P,
  body: ConsoleRequests[P],
): Promise<T & { error?: string }> {
  return replyOf<T>(() => fetch(`api/${path}`, { method: 'POST', body: JSON.stringify(body) }));
}

/** GETs `api/<path>` as JSON. */
export async function get<T>(path: string): Promise<T & { error?: string }> {
  return replyOf<T>(() => fetch(`api/${path}`));
}

/** The JSON reply, or `{ error }` saying why there is none (server gone, a reply that is not JSON). */
async function replyOf<T>(request: () => Promise<Response>): Promise<T & { error?: string }> {
  let response: Response;
  try {
    response = await request();
  } catch (error) {
    return { error: `the console cannot be reached: ${(error as Error).message}` } as T & { error: string };
  }
  const text = await response.text();
  try {
    return JSON.parse(text) as T & { error?: string };
  } catch {
    return { error: `${response.status} ${text.slice(0, 200)}` } as T & { error: string };
  }
}
