import type { AudioBotLink } from '@ringflow/runtime';
import type { BotExchange } from './BotExchange.ts';

/** slin16: 32 bytes a millisecond. */
const BYTES_PER_MS = 32;

/** What the recording link reports: each control message, and the bot's audio a burst at a time. */
export interface AudioLinkRecorder {
  exchange(exchange: Omit<BotExchange, 'at' | 'call'>): void;
  /** The bot sent `ms` of audio at once (the messages of one moment, summed). */
  botAudio(ms: number): void;
}

/**
 * An audio bot's link with what crosses it recorded: control messages both ways as exchanges,
 * the bot's audio summed over the messages it sends together (one line on the timeline, not one
 * per message), the protocol breaks of its audio as exchanges.
 */
export function recordAudioBotLink(link: AudioBotLink, recorder: AudioLinkRecorder): AudioBotLink {
  let pendingBytes = 0;
  const flush = () => {
    if (pendingBytes === 0) return;
    const ms = pendingBytes / BYTES_PER_MS;
    pendingBytes = 0;
    recorder.botAudio(ms);
  };
  const audioArrived = (bytes: number) => {
    // Messages sent together arrive on successive microtasks: summed once they all have (or
    // when a control message of the bot comes after them).
    if (pendingBytes === 0) queueMicrotask(flush);
    pendingBytes += bytes;
  };
  return {
    send: (message) => {
      recorder.exchange({ from: 'ringflow', message });
      link.send(message);
    },
    sendAudio: (data) => link.sendAudio(data),
    onMessage: (handler) =>
      link.onMessage((message) => {
        flush();
        recorder.exchange({ from: 'bot', message });
        handler(message);
      }),
    onAudio: (handler) =>
      link.onAudio((data) => {
        if ('error' in data) {
          flush();
          recorder.exchange({ from: 'bot', message: data });
        } else audioArrived(data.byteLength);
        handler(data);
      }),
    onClose: (handler) => link.onClose(handler),
    close: () => link.close(),
  };
}
