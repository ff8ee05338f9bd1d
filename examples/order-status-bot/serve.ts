/**
 * Serves the demo order-status bot over WebSocket for flows/order-status.yaml:
 *   npx tsx examples/order-status-bot/serve.ts        # ws://127.0.0.1:9100/order-status
 */
import { serveTextBot } from '@ringflow/runtime';
import { orderStatusBot } from './orderStatusBot.ts';

const port = Number(process.env.PORT ?? 9100);
const served = await serveTextBot(orderStatusBot(), { port, path: '/order-status' });
console.log(`order-status bot listening on ${served.url}`);
process.once('SIGINT', () => void served.close().then(() => process.exit(0)));
