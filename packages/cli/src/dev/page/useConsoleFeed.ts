import { useEffect, useState } from 'preact/hooks';
import { ConsoleStore } from './ConsoleStore.ts';
import type { FeedMessage, FlowDescription } from './types.ts';

/** Where the page stands with its server: loading its first data, following the feed, or lost it. */
export type Connection = 'loading' | 'live' | 'lost';

/**
 * The console's store, kept up to date from the server: the flows (GET api/flows), then the feed
 * (server-sent events from api/feed: its history first; the browser reconnects a lost feed). The
 * page renders again once per frame, whatever the number of messages that came in it (a page
 * opened late gets up to 5000 at once). `pickedFlow` names the flow a new call is in until the
 * feed says which.
 */
export function useConsoleFeed(pickedFlow: () => string): {
  store: ConsoleStore;
  version: number;
  connection: Connection;
} {
  const [store] = useState(() => new ConsoleStore());
  const [version, setVersion] = useState(0);
  const [connection, setConnection] = useState<Connection>('loading');
  useEffect(() => {
    let feed: EventSource | undefined;
    let closed = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      fetch('api/flows')
        .then((r) => r.json() as Promise<FlowDescription[]>)
        .then((flows) => {
          if (closed) return;
          store.apply({ type: 'flows', flows }, '');
          setVersion(store.version);
          feed = new EventSource('api/feed');
          feed.onopen = () => setConnection('live');
          feed.onerror = () => setConnection('lost');
          let frame = false;
          feed.onmessage = (m: MessageEvent<string>) => {
            store.apply(JSON.parse(m.data) as FeedMessage, pickedFlow());
            if (frame) return;
            frame = true;
            requestAnimationFrame(() => {
              frame = false;
              setVersion(store.version);
            });
          };
        })
        .catch(() => {
          // The server is not there (yet): the page says so and asks again.
          if (closed) return;
          setConnection('lost');
          retry = setTimeout(load, 2000);
        });
    void load();
    return () => {
      closed = true;
      clearTimeout(retry);
      feed?.close();
    };
  }, [store]);
  return { store, version, connection };
}
