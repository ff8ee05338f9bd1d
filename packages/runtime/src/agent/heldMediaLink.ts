import type { MediaConnection } from '@ringflow/client';

/**
 * A media connection that keeps what arrives before anyone listens and hands it to the first
 * handler: the server may send MEDIA_START the moment the socket opens (an in-process pipe of the
 * simulator does it synchronously), before the relay that asked for the socket listens.
 */
export function heldMediaLink(link: MediaConnection): MediaConnection {
  const held = { text: [] as string[], binary: [] as Uint8Array[], close: undefined as number | undefined };
  const handlers = {
    text: [] as ((t: string) => void)[],
    binary: [] as ((d: Uint8Array) => void)[],
    close: [] as ((c: number) => void)[],
  };
  link.onText((t) => {
    if (handlers.text.length) for (const h of handlers.text) h(t);
    else held.text.push(t);
  });
  link.onBinary((d) => {
    if (handlers.binary.length) for (const h of handlers.binary) h(d);
    else held.binary.push(d);
  });
  link.onClose((c) => {
    if (handlers.close.length) for (const h of handlers.close) h(c);
    else held.close = c;
  });
  return {
    get open() {
      return link.open;
    },
    sendText: (text) => link.sendText(text),
    sendBinary: (data) => link.sendBinary(data),
    close: (code) => link.close(code),
    onText: (handler) => {
      handlers.text.push(handler);
      for (const t of held.text.splice(0)) handler(t);
    },
    onBinary: (handler) => {
      handlers.binary.push(handler);
      for (const d of held.binary.splice(0)) handler(d);
    },
    onClose: (handler) => {
      handlers.close.push(handler);
      if (held.close !== undefined) handler(held.close);
    },
  };
}
