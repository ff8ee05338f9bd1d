import { UsageError } from './Command.ts';

/**
 * `--server`: a server's HTTP address as the ARI base URL (`/ari` added when missing).
 *
 * @example parseServerUrl('http://127.0.0.1:8088') // 'http://127.0.0.1:8088/ari'
 */
export function parseServerUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--server: expected an address such as http://127.0.0.1:8088, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--server: expected http:// or https://, got '${url.protocol}'`);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path.endsWith('/ari') ? path : `${path}/ari`}`;
}
