import { useEffect, useState } from 'preact/hooks';
import { ConsoleStore } from './ConsoleStore.ts';
import type { FeedMessage, FlowDescription } from './types.ts';

/**
 * The console's store, kept up to date from the server: the flows (GET api/flows), then the feed
 * (server-sent events from api/feed: its history first). The page renders again once per frame,
 * whatever the number of messages that came in it (a page opened late gets up to 5000 at once).
 * `pickedFlow` names the flow a new call is in until the feed says which.
 */
export function useConsoleFeed(pickedFlow: () => string): { store: ConsoleStore; version: number } {
  const [store] = useState(() => new ConsoleStore());
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let feed: EventSource | undefined;
    let closed = false;
    void fetch('api/flows')
      .then((r) => r.json() as Promise<FlowDescription[]>)
      .then((flows) => {
        if (closed) return;
        store.apply({ type: 'flows', flows }, '');
        setVersion(store.version);
        feed = new EventSource('api/feed');
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
      });
    return () => {
      closed = true;
      feed?.close();
    };
  }, [store]);
  return { store, version };
}
