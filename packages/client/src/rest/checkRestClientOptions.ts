import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import type { RestClientOptions } from './RestClient.ts';
import { checkTlsOptions } from './TlsOptions.ts';

function fail(message: string): never {
  throw new RingflowError(ErrorCode.CONFIG, `createRestClient: ${message}`);
}

/**
 * Rejects options that cannot work, naming the field, what was expected and how to fix it.
 * Credentials inside the url are refused: they would end up in logs with the url.
 *
 * @example
 * checkRestClientOptions({ url: 'localhost:8088', username: 'u', password: 'p' });
 * // throws CONFIG: "url must be an http(s) address such as http://127.0.0.1:8088/ari ..."
 */
export function checkRestClientOptions(options: RestClientOptions): void {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    fail(
      `url must be an http(s) address such as http://127.0.0.1:8088/ari, got ${JSON.stringify(options.url)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    fail(`url must start with http:// or https://, got ${url.protocol}//`);
  }
  if (url.username || url.password) {
    fail('url must not contain credentials; pass them as the username and password options');
  }
  if (url.search || url.hash) fail('url must be the interface root without ?query or #fragment');
  if (typeof options.username !== 'string') fail('username must be a string (the ARI user)');
  if (typeof options.password !== 'string') fail('password must be a string');
  if (options.auth !== undefined && options.auth !== 'basic' && options.auth !== 'api_key') {
    fail(`auth must be 'basic' or 'api_key', got ${JSON.stringify(options.auth)}`);
  }
  if (options.segment !== undefined && !['asterisk', 'core', 'auto'].includes(options.segment)) {
    fail(`segment must be 'asterisk', 'core' or 'auto', got ${JSON.stringify(options.segment)}`);
  }
  if (options.timeoutMs !== undefined && !(typeof options.timeoutMs === 'number' && options.timeoutMs >= 0)) {
    fail(
      `timeoutMs must be a number of milliseconds >= 0 (0 disables the timeout), got ${options.timeoutMs}`,
    );
  }
  if (
    options.connections !== undefined &&
    !(Number.isInteger(options.connections) && options.connections > 0)
  ) {
    fail(`connections must be a whole number > 0, got ${options.connections}`);
  }
  checkTlsOptions(options.tls, options.url, 'createRestClient: tls');
}
