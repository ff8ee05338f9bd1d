/**
 * The application a name given by the server belongs to: one of `apps` itself, or `<app>` of a
 * per-call connection's `<app>:<channel name>`; undefined for a name of another application.
 *
 * @example appOfName(['ivr'], 'ivr:PJSIP/100-0001') // 'ivr'
 */
export function appOfName(apps: readonly string[], name: string): string | undefined {
  if (apps.includes(name)) return name;
  const colon = name.indexOf(':');
  if (colon <= 0) return undefined;
  const base = name.slice(0, colon);
  return apps.includes(base) ? base : undefined;
}
