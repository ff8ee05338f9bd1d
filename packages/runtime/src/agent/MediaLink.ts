/**
 * ringflow's end of a media socket (chan_websocket; externalMedia with `transport=websocket`):
 * text control messages and binary audio frames both ways. A WebSocket to the server's
 * `/media/<MEDIA_WEBSOCKET_CONNECTION_ID>`, or an in-process pipe of the simulator (its
 * `MediaPipe` has this shape).
 */
export interface MediaLink {
  readonly open: boolean;
  sendText(text: string): void;
  sendBinary(data: Uint8Array): void;
  close(code?: number): void;
  onText(handler: (text: string) => void): void;
  onBinary(handler: (data: Uint8Array) => void): void;
  onClose(handler: (code: number) => void): void;
}

/** What the server's first message says about the connection (plain-text or JSON form). */
export interface MediaStart {
  readonly channelId: string;
  readonly format: string;
  /** Bytes per 20 ms frame (640 for slin16); 0 for passthrough codecs. */
  readonly optimalFrameSize: number;
}

/**
 * Reads `MEDIA_START` in either form the server sends (recorded: `MEDIA_START connection_id:…
 * channel:… channel_id:… format:slin16 optimal_frame_size:640 ptime:20`, or the same fields as
 * JSON with `"event":"MEDIA_START"`); undefined for any other message.
 */
export function parseMediaStart(text: string): MediaStart | undefined {
  if (text.startsWith('{')) {
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      if (json.event !== 'MEDIA_START') return undefined;
      return {
        channelId: String(json.channel_id ?? ''),
        format: String(json.format ?? ''),
        optimalFrameSize: Number(json.optimal_frame_size ?? 0),
      };
    } catch {
      return undefined;
    }
  }
  if (!text.startsWith('MEDIA_START')) return undefined;
  const fields = new Map<string, string>();
  for (const part of text.split(/\s+/).slice(1)) {
    const colon = part.indexOf(':');
    if (colon > 0) fields.set(part.slice(0, colon), part.slice(colon + 1));
  }
  return {
    channelId: fields.get('channel_id') ?? '',
    format: fields.get('format') ?? '',
    optimalFrameSize: Number(fields.get('optimal_frame_size') ?? 0),
  };
}

/** Opens the media socket of an external media channel the application connects in to. */
export type MediaConnector = (connectionId: string) => Promise<MediaLink>;
