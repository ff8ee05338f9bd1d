/**
 * Serves the echo bot of the audio protocol for examples/echo-audio-bot/echo-line.yaml:
 *   npx tsx examples/echo-audio-bot/serve.ts        # ws://127.0.0.1:9200/echo
 */
import { serveAudioBot } from '@ringflow/runtime';
import { echoAudioBot } from './echoAudioBot.ts';

const port = Number(process.env.PORT ?? 9200);
const served = await serveAudioBot(echoAudioBot(), { port, path: '/echo' });
console.log(`echo bot (audio protocol) listening on ${served.url}`);
process.once('SIGINT', () => void served.close().then(() => process.exit(0)));
process.once('SIGTERM', () => void served.close().then(() => process.exit(0)));
