import type { ConfigClass } from './ConfigClass.ts';
import { ConfigFileStore } from './ConfigFileStore.ts';
import { choiceField, hiddenField, stringField } from './configFieldKinds.ts';

const civicAddressCodes = new Set(
  [
    'country',
    'A1',
    'A2',
    'A3',
    'A4',
    'A5',
    'A6',
    'PRD',
    'POD',
    'STS',
    'HNO',
    'HNS',
    'LMK',
    'LOC',
    'NAM',
    'PC',
    'BLD',
    'UNIT',
    'FLR',
    'ROOM',
    'SEAT',
    'PLC',
    'PCN',
    'POBOX',
    'ADDCODE',
    'RD',
    'RDSEC',
    'RDBR',
    'RDSUBBR',
    'PRM',
    'POM',
  ].map((c) => c.toLowerCase()),
);
const gmlShapes = new Set(
  ['Point', 'Circle', 'Ellipse', 'ArcBand', 'Polygon', 'Sphere', 'Ellipsoid', 'Prism'].map((s) =>
    s.toLowerCase(),
  ),
);

/** `key=value` pairs separated by commas, keys lowercased. */
function parsePairs(text: string): Map<string, string> {
  const pairs = new Map<string, string>();
  for (const item of text.split(',')) {
    const at = item.indexOf('=');
    if (at > 0) pairs.set(item.slice(0, at).trim().toLowerCase(), item.slice(at + 1).trim());
  }
  return pairs;
}

/**
 * Whether `location_info` suits `format`, the gist of the server's location check: a URI needs
 * `URI=`, GML a known `shape` and a position, a civic address known element codes.
 */
function locationIsValid(values: Readonly<Record<string, string>>): boolean {
  const info = parsePairs(values.location_info ?? '');
  switch (values.format) {
    case 'URI':
      return Boolean(info.get('uri'));
    case 'GML':
      return gmlShapes.has(info.get('shape')?.toLowerCase() ?? '') && (info.has('pos') || info.has('pos3d'));
    case 'civicAddress':
      return info.size > 0 && [...info.keys()].every((k) => civicAddressCodes.has(k));
    default:
      return false;
  }
}

/**
 * The `res_geolocation` class: `location` objects from the configuration file (none by default).
 * A create is refused (403) once the object is valid; before that, an invalid location (a `GML`
 * format without its `location_info`, as traced) fails validation (400).
 *
 * @example
 * const geo = geolocationConfigClass({ locations: { hq: { format: 'URI', location_info: 'URI=https://example.com/hq' } } });
 */
export function geolocationConfigClass(
  options: { readonly locations?: Readonly<Record<string, Readonly<Record<string, string>>>> } = {},
): ConfigClass {
  return {
    name: 'res_geolocation',
    module: 'res_geolocation.so',
    types: [
      {
        name: 'location',
        fields: [
          choiceField('format', 'none', ['none', 'civicAddress', 'GML', 'URI']),
          stringField('location_info'),
          stringField('location_source'),
          stringField('method'),
          stringField('confidence'),
          hiddenField('type'),
        ],
        check: locationIsValid,
        store: new ConfigFileStore(options.locations),
      },
    ],
  };
}
