import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SoundFolder } from './SoundFolder.ts';

/** The content type of each playable format (the raw ones are decoded by the page). */
const CONTENT_TYPES: Readonly<Record<string, string>> = { wav: 'audio/wav' };

/**
 * `GET api/sound?name=<sound>&lang=<language>`: the best playable file of a sound in the sounds
 * folder (see SoundFolder.file), its format in `x-sound-format` (`wav`, `sln16`, `sln`, `ulaw`,
 * `alaw`...). 404 `{ error }` when there is no folder, when the sound is not in it, or when the
 * name or language could lead outside it.
 *
 * @example
 * prefixes: [['/api/sound', (req, res) => serveSound(folder, req, res)]]
 */
export function serveSound(folder: SoundFolder | undefined, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const name = url.searchParams.get('name') ?? '';
  const language = url.searchParams.get('lang') || 'en';
  const refuse = (error: string) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error }));
  };
  if (url.pathname !== '/api/sound') return void refuse('not found');
  if (!folder)
    return void refuse('no sounds folder: start ringflow dev with --sounds <a server sounds folder>');
  const file = folder.file(name, language);
  if (!file) return void refuse(`no playable file of sound "${name}" (${language}) in ${folder.dir}`);
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[file.format] ?? 'application/octet-stream',
    'x-sound-format': file.format,
    'cache-control': 'max-age=60',
  });
  createReadStream(file.path).pipe(res);
}
