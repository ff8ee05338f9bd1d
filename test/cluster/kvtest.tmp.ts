import { connect } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
const url = process.argv[2]!;
const nc = await connect({ servers: url });
const kv = await new Kvm(nc).create('b' + Date.now(), { history: 1, ttl: 86400000 });
let rev = await kv.create('call.x', JSON.stringify({ a: 1 }));
const t0 = Date.now();
for (let i = 0; i < 300; i++) {
  const w = kv.update('call.x', JSON.stringify({ a: i }), rev).then((r) => { rev = r; });
  const started = Date.now();
  const timer = setTimeout(() => { console.log('get hung at', i); process.exit(1); }, 4000);
  const e = await kv.get('call.x');
  clearTimeout(timer);
  await w;
  const keys: string[] = [];
  for await (const k of await kv.keys()) { keys.push(k); await kv.get(k); }
  if (Date.now() - started > 1000) console.log('slow', i);
}
console.log('ok', Date.now() - t0, 'ms');
await nc.close();
