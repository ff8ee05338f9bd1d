/**
 * Reads the console's feed (`<url>api/feed`, server-sent events: the page of `ringflow dev` or the
 * live view of `ringflow run --http`) until `done` says enough, then closes it; gives up after
 * 10 s, saying what came. `headers`: e.g. the live view's Basic authorization.
 */
export async function readFeed(
  url: string,
  done: (messages: Record<string, unknown>[]) => boolean,
  headers: Record<string, string> = {},
) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  const messages: Record<string, unknown>[] = [];
  try {
    const response = await fetch(`${url}api/feed`, { headers, signal: controller.signal });
    if (response.headers.get('content-type') !== 'text/event-stream')
      throw new Error(`${url}api/feed answered ${response.status} ${response.headers.get('content-type')}`);
    const reader = response.body!.getReader();
    let text = '';
    while (!done(messages)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += new TextDecoder().decode(value);
      const parts = text.split('\n\n');
      text = parts.pop() ?? '';
      for (const part of parts) {
        const data = part.split('\n').find((line) => line.startsWith('data: '));
        if (data) messages.push(JSON.parse(data.slice('data: '.length)) as Record<string, unknown>);
      }
    }
  } catch (error) {
    throw new Error(
      `the feed did not say it in 10 s; it said:\n${messages.map((m) => JSON.stringify(m)).join('\n')}`,
      {
        cause: error,
      },
    );
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return messages;
}
