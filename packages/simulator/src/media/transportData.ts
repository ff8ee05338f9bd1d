/**
 * The options of a chan_websocket dial string (`WebSocket/<connection>/<options>`), which
 * externalMedia takes as `transport_data`: `v(k=v,k2=v2)` adds query parameters to the URI the
 * server dials, `f(json|plain-text)` picks the control message format, `n` leaves the channel
 * unanswered until the application sends ANSWER, `p` passes the codec through unframed.
 */
export interface TransportData {
  readonly uriParams: readonly (readonly [string, string])[];
  readonly controlFormat: 'plain-text' | 'json' | undefined;
  readonly noAutoAnswer: boolean;
  readonly passthrough: boolean;
}

/**
 * Parses `transport_data`; returns undefined for text the real server cannot parse (it answers
 * 500, observed with `z(nonsense`).
 *
 * @example
 * parseTransportData('v(call=a1,lang=en)')?.uriParams; // [['call','a1'],['lang','en']]
 */
export function parseTransportData(text: string | undefined): TransportData | undefined {
  const result = {
    uriParams: [] as [string, string][],
    controlFormat: undefined as TransportData['controlFormat'],
    noAutoAnswer: false,
    passthrough: false,
  };
  let rest = text ?? '';
  while (rest !== '') {
    const letter = rest[0];
    if (letter === 'n' || letter === 'p') {
      if (letter === 'n') result.noAutoAnswer = true;
      else result.passthrough = true;
      rest = rest.slice(1);
      continue;
    }
    if ((letter !== 'v' && letter !== 'f') || rest[1] !== '(') return undefined;
    const end = rest.indexOf(')');
    if (end < 0) return undefined;
    const inner = rest.slice(2, end);
    rest = rest.slice(end + 1);
    if (letter === 'f') {
      if (inner !== 'json' && inner !== 'plain-text') return undefined;
      result.controlFormat = inner;
      continue;
    }
    for (const pair of inner.split(',')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      result.uriParams.push(eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)]);
    }
  }
  return result;
}
