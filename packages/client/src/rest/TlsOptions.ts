import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';

/** PEM text or its bytes. */
export type PemData = string | Uint8Array;

/**
 * TLS settings for `https://` and `wss://` servers, shared by the REST client and the event
 * stream. There is deliberately no way to turn certificate checks off: a client that accepts any
 * certificate hands the ARI password and the calls to whoever sits on the path. To trust a
 * private or self-signed server, give its CA (or its own certificate) as `ca`.
 *
 * @example
 * const tls: TlsOptions = {
 *   ca: readFileSync('/etc/ringflow/pbx-ca.pem'),          // trust the PBX's private CA
 *   cert: readFileSync('client.pem'), key: readFileSync('client.key'), // when the server wants a client certificate
 *   servername: 'pbx.example.com',                          // the name in its certificate, when the url uses an IP
 * };
 */
export interface TlsOptions {
  /** Certificate authorities to trust, PEM. Replaces Node's default list, as Node's own `ca` does. */
  readonly ca?: PemData | readonly PemData[];
  /** Client certificate chain, PEM, for servers that require one. Needs `key`. */
  readonly cert?: PemData | readonly PemData[];
  /** Private key of the client certificate, PEM. Needs `cert`. */
  readonly key?: PemData | readonly PemData[];
  /** Passphrase of an encrypted `key`. */
  readonly passphrase?: string;
  /** Name to check the server's certificate against (and to send as SNI), instead of the url's host. */
  readonly servername?: string;
}

const ALLOWED = new Set(['ca', 'cert', 'key', 'passphrase', 'servername']);

/** The message for anyone trying to switch verification off, wherever they try it. */
export function verificationOffMessage(where: string): string {
  return (
    `${where}: turning certificate verification off is not supported, because anyone between ringflow and the ` +
    "server could then read the ARI password and control the calls. To trust a private or self-signed server, give the CA that signed its certificate (or the certificate itself) as tls.ca, e.g. tls: { ca: readFileSync('pbx-ca.pem') }; " +
    'if the certificate names another host than the url, set tls.servername.'
  );
}

function isPem(value: unknown): boolean {
  return typeof value === 'string' || value instanceof Uint8Array;
}

function isPemList(value: unknown): boolean {
  return isPem(value) || (Array.isArray(value) && value.length > 0 && value.every(isPem));
}

/**
 * Checks TLS options and the url they go with; throws a `CONFIG` RingflowError naming the field.
 * Refuses `rejectUnauthorized: false` and `checkServerIdentity` (see {@link TlsOptions}), unknown
 * fields, a certificate without its key, and TLS options for a plain `http://`/`ws://` url
 * (they would be ignored, so the connection would not be what the caller meant).
 *
 * @example
 * checkTlsOptions({ rejectUnauthorized: false } as TlsOptions, 'https://pbx/ari', 'createRestClient: tls');
 * // throws CONFIG: "createRestClient: tls.rejectUnauthorized: turning certificate verification off is not supported ..."
 */
export function checkTlsOptions(tls: TlsOptions | undefined, url: string, where: string): void {
  if (tls === undefined) return;
  const fail = (message: string): never => {
    throw new RingflowError(ErrorCode.CONFIG, `${where}${message}`);
  };
  if (typeof tls !== 'object' || tls === null || Array.isArray(tls)) {
    fail(` must be an object such as { ca: readFileSync('ca.pem') }, got ${JSON.stringify(tls)}`);
  }
  for (const key of Object.keys(tls)) {
    if (key === 'rejectUnauthorized' || key === 'checkServerIdentity' || key === 'insecure') {
      throw new RingflowError(ErrorCode.CONFIG, verificationOffMessage(`${where}.${key}`));
    }
    if (!ALLOWED.has(key)) {
      fail(`.${key} is not a TLS option of ringflow; the options are: ${[...ALLOWED].join(', ')}`);
    }
  }
  if (tls.ca !== undefined && !isPemList(tls.ca)) fail('.ca must be PEM text or bytes (or a list of them)');
  if (tls.cert !== undefined && !isPemList(tls.cert))
    fail('.cert must be PEM text or bytes (or a list of them)');
  if (tls.key !== undefined && !isPemList(tls.key))
    fail('.key must be PEM text or bytes (or a list of them)');
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    fail(
      `.${tls.cert === undefined ? 'key' : 'cert'} is given without .${tls.cert === undefined ? 'cert' : 'key'}: a client certificate needs both`,
    );
  }
  if (tls.passphrase !== undefined && typeof tls.passphrase !== 'string')
    fail('.passphrase must be a string');
  if (tls.servername !== undefined && (typeof tls.servername !== 'string' || tls.servername === '')) {
    fail('.servername must be a host name such as pbx.example.com');
  }
  const protocol = (() => {
    try {
      return new URL(url).protocol;
    } catch {
      return '';
    }
  })();
  if (protocol === 'http:' || protocol === 'ws:') {
    fail(
      ` is given but the url ${JSON.stringify(url)} is not encrypted: use https:// (or wss://) to connect with TLS`,
    );
  }
}

/** The TLS options as Node's `tls.connect` takes them (undici's `connect`, ws's client options). */
export function nodeTlsOptions(tls: TlsOptions | undefined): Record<string, unknown> {
  if (!tls) return {};
  const out: Record<string, unknown> = {};
  for (const key of ALLOWED) {
    const value = tls[key as keyof TlsOptions];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** OpenSSL and Node error codes that mean the TLS handshake or the certificate check failed. */
const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/**
 * When `error` (or its cause) is a TLS failure, a sentence saying what to do about it; otherwise
 * undefined. Used by the REST transport and the event stream, so both explain it the same way.
 *
 * @example
 * describeTlsFailure(Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }));
 * // 'TLS: the server certificate was not accepted (SELF_SIGNED_CERT_IN_CHAIN: ...). Give the CA ...'
 */
export function describeTlsFailure(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || !TLS_CODES.test(code)) continue;
    if (
      /CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE|BAD_CERTIFICATE|UNKNOWN_CA.*ALERT|ALERT_UNKNOWN_CA/.test(code)
    ) {
      return `TLS: the server refused the handshake (${code}: ${e.message}). It probably wants a client certificate it trusts: set tls.cert and tls.key.`;
    }
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') {
      return `TLS: the server certificate does not name the host of the url (${code}: ${e.message}). Use the host its certificate names in the url, or set tls.servername to it.`;
    }
    return `TLS: the server certificate was not accepted (${code}: ${e.message}). Give the CA that signed it as tls.ca (PEM), and check that it has not expired.`;
  }
  return undefined;
}
