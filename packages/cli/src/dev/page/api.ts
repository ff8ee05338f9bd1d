/**
 * The page's requests. They are relative (`api/feed`), so the page works wherever it is mounted
 * (`/` for ringflow dev, `/console/` for the live view). A failed request's `error` is shown by
 * whoever asked (see Notice).
 */

/** POSTs `body` to `api/<path>` and answers the JSON reply (`{ error }` when refused). */
export async function post<T>(
  path: string,
  body: Readonly<Record<string, unknown>>,
): Promise<T & { error?: string }> {
  const response = await fetch(`api/${path}`, { method: 'POST', body: JSON.stringify(body) });
  return (await response.json()) as T & { error?: string };
}

/** GETs `api/<path>` as JSON. */
export async function get<T>(path: string): Promise<T & { error?: string }> {
  const response = await fetch(`api/${path}`);
  return (await response.json()) as T & { error?: string };
}
