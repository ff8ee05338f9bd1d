import { useEffect, useRef, useState } from 'preact/hooks';
import { LINE_PATH, LINE_SAMPLE_RATE, type LineMessage } from '../feedMessages.ts';
import type { CallAudio } from './CallAudio.ts';
import { lineBytes, lineSamples } from './lineFrame.ts';

/**
 * The selected call's line (a WebSocket at `api/line?call=<id>`, see LINE_PATH): the bot's audio
 * the caller hears comes in frame by frame (`frame`), a flush when the bot cuts it short
 * (`flush`); the caller's voice goes out ({@link send}).
 *
 * @example
 * const line = new CallLine('call-1', true, { frame: (s) => audio.lineFrame(s, 16000), flush: () => audio.lineFlush() });
 * line.send(samples); // 320 samples of the microphone
 */
export class CallLine {
  private readonly ws: WebSocket;

  /** `placed`: the page placed the call; what its caller heard before the line opened comes first. */
  constructor(
    call: string,
    placed: boolean,
    handlers: { readonly frame: (samples: Int16Array) => void; readonly flush: () => void },
  ) {
    const query = new URLSearchParams({ call, ...(placed ? { placed: '1' } : {}) });
    const url = new URL(`${LINE_PATH}?${query}`, location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    this.ws = new WebSocket(url);
    this.ws.binaryType = 'arraybuffer';
    this.ws.onmessage = (m: MessageEvent<ArrayBuffer | string>) => {
      if (typeof m.data !== 'string') return handlers.frame(lineSamples(m.data));
      const message = JSON.parse(m.data) as LineMessage;
      if (message.type === 'flush') handlers.flush();
    };
  }

  /** One 20 ms frame of the caller's voice (16 kHz); dropped while the line is not open. */
  send(samples: Int16Array): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(lineBytes(samples));
  }

  close(): void {
    this.ws.close(1000);
  }
}

/**
 * Opens the line of `call` while it is selected and goes on (none in the live view): its bot's
 * audio is played by `audio` while sound is on, and stopped at once on a flush, when sound is
 * turned off, or when the call is left. A call the page placed is heard from the moment it was
 * placed (`placed`: the bot may speak before the server's reply names the call). Returns the line
 * (for the microphone), or null.
 */
export function useCallLine(
  audio: CallAudio,
  options: { readonly call: string | null; readonly placed: boolean; readonly on: boolean },
) {
  const [line, setLine] = useState<CallLine | null>(null);
  const on = useRef(options.on);
  on.current = options.on;
  useEffect(() => {
    const call = options.call;
    if (!call) return;
    const opened = new CallLine(call, options.placed, {
      frame: (samples) => {
        if (on.current) audio.lineFrame(samples, LINE_SAMPLE_RATE);
      },
      flush: () => audio.lineFlush(),
    });
    setLine(opened);
    return () => {
      opened.close();
      audio.lineFlush();
      setLine(null);
    };
  }, [options.call]);
  useEffect(() => {
    if (!options.on) audio.lineFlush();
  }, [options.on]);
  return line;
}
