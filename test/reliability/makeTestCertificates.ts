import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PEM texts of a test PKI: a CA, a server certificate it signed, a client certificate, and a stranger CA. */
export interface TestCertificates {
  readonly ca: string;
  /** Signed by `ca`, for 127.0.0.1 and localhost. */
  readonly serverCert: string;
  readonly serverKey: string;
  /** Signed by `ca`, naming only pbx.example.test (for servername checks). */
  readonly namedCert: string;
  readonly namedKey: string;
  /** Signed by `ca`, for client authentication (CN ringflow-client). */
  readonly clientCert: string;
  readonly clientKey: string;
  /** A CA that signed none of these. */
  readonly otherCa: string;
}

/**
 * Makes a throwaway PKI with the `openssl` command (present wherever Node's TLS is) in a temp
 * folder, reads it and removes the folder. Keys are EC P-256, valid one day.
 *
 * @example
 * const pki = makeTestCertificates();
 * https.createServer({ cert: pki.serverCert, key: pki.serverKey }, handler);
 */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'ringflow-pki-'));
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const file = (name: string) => readFileSync(join(dir, name), 'utf8');
  try {
    const key = (name: string) => ssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', name);
    const ca = (name: string, cn: string) => {
      key(`${name}.key`);
      ssl(
        'req',
        '-x509',
        '-new',
        '-key',
        `${name}.key`,
        '-subj',
        `/CN=${cn}`,
        '-days',
        '1',
        '-out',
        `${name}.pem`,
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
      );
    };
    const leaf = (name: string, cn: string, extensions: string) => {
      key(`${name}.key`);
      ssl('req', '-new', '-key', `${name}.key`, '-subj', `/CN=${cn}`, '-out', `${name}.csr`);
      writeFileSync(join(dir, `${name}.ext`), extensions);
      ssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        '1',
        '-extfile',
        `${name}.ext`,
        '-out',
        `${name}.pem`,
      );
    };
    ca('ca', 'ringflow test CA');
    ca('other', 'somebody else');
    leaf('server', '127.0.0.1', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
    leaf('named', 'pbx.example.test', 'subjectAltName=DNS:pbx.example.test\nextendedKeyUsage=serverAuth\n');
    leaf('client', 'ringflow-client', 'extendedKeyUsage=clientAuth\n');
    return {
      ca: file('ca.pem'),
      serverCert: file('server.pem'),
      serverKey: file('server.key'),
      namedCert: file('named.pem'),
      namedKey: file('named.key'),
      clientCert: file('client.pem'),
      clientKey: file('client.key'),
      otherCa: file('other.pem'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
