import type { ConfigClass } from './ConfigClass.ts';
import { ConfigFileStore } from './ConfigFileStore.ts';
import { boolField, choiceField, hiddenField, intRangeField, stringField } from './configFieldKinds.ts';

/** An interface user as the server's configuration file declares it. */
export interface AriUserConfig {
  readonly name: string;
  readonly password: string;
  /** Default false. */
  readonly readOnly?: boolean;
  /** Default `plain`; `crypt` means `password` holds a crypt(3) hash. */
  readonly passwordFormat?: 'plain' | 'crypt';
}

/** The settings of the interface's `general` section, as the configuration file holds them. */
export type AriGeneralSettings = Partial<
  Record<
    'websocket_write_timeout' | 'allowed_origins' | 'pretty' | 'auth_realm' | 'channelvars' | 'enabled',
    string
  >
>;

/** The traced server's `general` section. */
const tracedGeneral = {
  websocket_write_timeout: '100',
  allowed_origins: '*',
  pretty: 'no',
  auth_realm: 'Asterisk REST Interface',
  channelvars: '',
  enabled: 'yes',
} as const;

/**
 * The `res_ari` class: its `user` and `general` objects come from the configuration file, so they
 * read fine but every create, update or delete is refused (403), as traced.
 *
 * @example
 * const ari = ariConfigClass({ users: [{ name: 'viewer', password: 'viewer', readOnly: true }] });
 */
export function ariConfigClass(options: {
  readonly users: readonly AriUserConfig[];
  readonly general?: AriGeneralSettings;
}): ConfigClass {
  const users = Object.fromEntries(
    options.users.map((u) => [
      u.name,
      {
        password_format: u.passwordFormat ?? 'plain',
        password: u.password,
        read_only: u.readOnly ? 'yes' : 'no',
      },
    ]),
  );
  return {
    name: 'res_ari',
    module: 'res_ari.so',
    types: [
      {
        name: 'user',
        // Listed in the order the traced server shows them.
        fields: [
          choiceField('password_format', 'plain', ['plain', 'crypt']),
          stringField('password'),
          boolField('read_only', 'no'),
          hiddenField('type'),
        ],
        store: new ConfigFileStore(users),
      },
      {
        name: 'general',
        fields: [
          intRangeField('websocket_write_timeout', '100', 1, 2147483647),
          stringField('allowed_origins'),
          boolField('pretty', 'no'),
          stringField('auth_realm', 'Asterisk REST Interface'),
          stringField('channelvars'),
          boolField('enabled', 'yes'),
          hiddenField('type'),
        ],
        store: new ConfigFileStore({ general: { ...tracedGeneral, ...options.general } }),
      },
    ],
  };
}
