import { describe, expect, it } from 'vitest';
import { ErrorCode, RingflowError } from '../errors/RingflowError.ts';
import { checkTlsOptions, describeTlsFailure, nodeTlsOptions, type TlsOptions } from './TlsOptions.ts';

const coded = (code: string, message = 'tls failure') => Object.assign(new Error(message), { code });

function configMessage(tls: unknown, url = 'https://pbx/ari'): string {
  try {
    checkTlsOptions(tls as TlsOptions, url, 'opts.tls');
  } catch (error) {
    expect(error).toBeInstanceOf(RingflowError);
    expect((error as RingflowError).code).toBe(ErrorCode.CONFIG);
    return (error as Error).message;
  }
  throw new Error('expected a CONFIG error');
}

describe('checkTlsOptions', () => {
  it('accepts the supported options on https and wss', () => {
    const tls = {
      ca: 'PEM',
      cert: Buffer.from('PEM'),
      key: ['PEM'],
      passphrase: 'x',
      servername: 'pbx.example.com',
    };
    expect(() => checkTlsOptions(tls, 'https://pbx/ari', 'tls')).not.toThrow();
    expect(() => checkTlsOptions(tls, 'wss://pbx/ari/events', 'tls')).not.toThrow();
    expect(() => checkTlsOptions(undefined, 'http://pbx/ari', 'tls')).not.toThrow();
  });

  it('refuses every way of switching verification off, saying to use tls.ca', () => {
    for (const key of ['rejectUnauthorized', 'checkServerIdentity', 'insecure']) {
      expect(configMessage({ [key]: false })).toMatch(
        new RegExp(`opts\\.tls\\.${key}: turning certificate verification off is not supported.*tls\\.ca`),
      );
    }
  });

  it('names the field for unknown options, bad PEM values, half a client certificate, a bad servername', () => {
    expect(configMessage({ ciphers: 'NULL' })).toMatch(/opts\.tls\.ciphers is not a TLS option/);
    expect(configMessage({ ca: 42 })).toMatch(/opts\.tls\.ca must be PEM/);
    expect(configMessage({ ca: [] })).toMatch(/opts\.tls\.ca must be PEM/);
    expect(configMessage({ key: 'PEM' })).toMatch(/opts\.tls\.key is given without \.cert/);
    expect(configMessage({ servername: '' })).toMatch(/opts\.tls\.servername must be a host name/);
    expect(configMessage('yes')).toMatch(/opts\.tls must be an object/);
  });

  it('refuses TLS options for a url that is not encrypted', () => {
    expect(configMessage({ ca: 'PEM' }, 'http://pbx:8088/ari')).toMatch(/not encrypted: use https:\/\//);
    expect(configMessage({ ca: 'PEM' }, 'ws://pbx:8088/ari')).toMatch(/not encrypted/);
  });

  it('passes only the vetted fields on to tls.connect', () => {
    const tls = { ca: 'A', servername: 'n', rejectUnauthorized: false } as unknown as TlsOptions;
    expect(nodeTlsOptions(tls)).toEqual({ ca: 'A', servername: 'n' });
    expect(nodeTlsOptions(undefined)).toEqual({});
  });
});

describe('describeTlsFailure', () => {
  it('tells which option fixes an untrusted certificate, a wrong host name, a refused client', () => {
    expect(describeTlsFailure(coded('SELF_SIGNED_CERT_IN_CHAIN'))).toMatch(/not accepted .*tls\.ca/);
    expect(describeTlsFailure(coded('UNABLE_TO_VERIFY_LEAF_SIGNATURE'))).toMatch(/tls\.ca/);
    expect(describeTlsFailure(coded('CERT_HAS_EXPIRED'))).toMatch(/expired/);
    expect(describeTlsFailure(coded('ERR_TLS_CERT_ALTNAME_INVALID'))).toMatch(/tls\.servername/);
    expect(describeTlsFailure(coded('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED'))).toMatch(
      /tls\.cert and tls\.key/,
    );
  });

  it('looks through causes, and leaves other failures alone', () => {
    expect(
      describeTlsFailure(new Error('fetch failed', { cause: coded('DEPTH_ZERO_SELF_SIGNED_CERT') })),
    ).toMatch(/tls\.ca/);
    expect(describeTlsFailure(coded('ECONNREFUSED'))).toBeUndefined();
    expect(describeTlsFailure('not an error')).toBeUndefined();
  });
});
