// The reference for `ringflow run --server`'s idle memory: the least an ARI application needs
// on ws + undici (an event WebSocket and a REST connection pool), connected, one request made,
// then idle. Plain JavaScript run by node, like the built `ringflow` command.
// Usage: node bench/startup/bareIdleApp.js <url ending in /ari> <user> <password> <app>
import { Pool } from 'undici';
import { WebSocket } from 'ws';

const [url, username, password, app] = process.argv.slice(2);
const root = new URL(url);
const authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const pool = new Pool(root.origin, { connections: 10 });
const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/events?app=${app}`, { headers: { authorization } });
ws.on('message', () => {});
ws.on('open', async () => {
  const res = await pool.request({
    method: 'GET',
    path: `${root.pathname}/applications`,
    headers: { authorization },
  });
  await res.body.text();
  process.stdout.write(`bare application "${app}" is running\n`);
});
process.on('SIGTERM', () => {
  ws.close();
  void pool.close().then(() => process.exit(0));
});
