import { type Diagnostic, diagnostic, type Path } from '../validate/Diagnostic.ts';

/** The fields of a transfer step its checks read (the schema has checked their types). */
interface TransferFields {
  readonly endpoint?: unknown;
  readonly context?: unknown;
  readonly extension?: unknown;
  readonly priority?: unknown;
  readonly label?: unknown;
  readonly attended?: boolean;
  readonly announce?: unknown;
  readonly confirm?: unknown;
  readonly timeout?: unknown;
  readonly callerId?: unknown;
  readonly mohClass?: unknown;
  readonly stepOut?: unknown;
}

const DIALPLAN_FIELDS = ['context', 'extension', 'priority', 'label'] as const;
const ATTENDED_FIELDS = ['announce', 'confirm', 'timeout', 'callerId', 'mohClass', 'stepOut'] as const;

/**
 * What the schema alone cannot say about a transfer: it names one target (an endpoint, or a
 * dialplan place for a blind transfer), an attended transfer calls an endpoint, and the options
 * of an attended transfer are not given to a blind one (where they would silently do nothing).
 *
 * @example
 * checkTransfer({ attended: true, context: 'support' }, path); // missing-field at path.endpoint
 */
export function checkTransfer(p: TransferFields, path: Path): Diagnostic[] {
  const out: Diagnostic[] = [];
  const dialplan = DIALPLAN_FIELDS.filter((f) => p[f] !== undefined);
  const hasEndpoint = p.endpoint !== undefined;
  if (p.attended === true) {
    if (!hasEndpoint)
      out.push(
        diagnostic(
          'missing-field',
          [...path, 'endpoint'],
          'An attended transfer calls the target first: give it an endpoint (technology/resource, e.g. PJSIP/operator).',
          { target: 'key' },
        ),
      );
    for (const f of dialplan)
      out.push(
        diagnostic(
          'invalid-value',
          [...path, f],
          `An attended transfer calls an endpoint; "${f}" only applies to a blind transfer into the dialplan. Remove it, or remove "attended: true".`,
          { target: 'key' },
        ),
      );
    return out;
  }
  if (hasEndpoint && dialplan.length > 0)
    for (const f of dialplan)
      out.push(
        diagnostic(
          'invalid-value',
          [...path, f],
          `A transfer goes to one place: an endpoint or a dialplan location, not both. Remove "${f}" or "endpoint".`,
          { target: 'key' },
        ),
      );
  if (!hasEndpoint && dialplan.length === 0)
    out.push(
      diagnostic(
        'missing-field',
        path,
        'A transfer needs a target: an endpoint (technology/resource), or a dialplan place (context, extension, priority or label).',
      ),
    );
  if (p.priority !== undefined && p.label !== undefined)
    out.push(
      diagnostic('invalid-value', [...path, 'label'], 'Give a priority or a label, not both.', {
        target: 'key',
      }),
    );
  for (const f of ATTENDED_FIELDS)
    if (p[f] !== undefined)
      out.push(
        diagnostic(
          'invalid-value',
          [...path, f],
          `"${f}" applies to an attended transfer only: a blind transfer hands the caller over at once. Add "attended: true" or remove "${f}".`,
          { target: 'key' },
        ),
      );
  return out;
}
