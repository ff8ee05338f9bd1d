import type { SimulatorDriver } from '../driver/SimulatorDriver.ts';
import type { SimResponse } from '../transport.ts';

/**
 * Where the driver lives on the wire. Outside `/ari` on purpose: a real server owns everything
 * under `/ari/...` (and may add resources there), so nothing we put here can ever shadow an ARI
 * route, and an ARI client pointed at the simulator never reaches the driver by accident.
 */
export const DRIVER_ROOT = '/ringflow/driver';

type Body = Readonly<Record<string, unknown>>;

/**
 * Answers one request to the driver API (path relative to {@link DRIVER_ROOT}) with the
 * in-process {@link SimulatorDriver}: the same implementation tests use, reached over HTTP.
 *
 * - `POST /calls` `{ to, from?, context?, app?, args?, language?, callerName?, endpoint?, channelId? }` -> 201 `{ id }`
 * - `POST /calls/{id}/dtmf` `{ digits, durationMs?, gapMs? }` -> 204
 * - `POST /calls/{id}/talk` -> 204 (the caller starts talking); `DELETE /calls/{id}/talk` -> 204 (silence)
 * - `POST /calls/{id}/answer`, `POST /calls/{id}/reject` `{ cause? }` -> 204 (far end of a dialled leg)
 * - `POST /calls/{id}/transfer` `{ exten, context? }` -> 201 `{ replacement }` (the phone's blind
 *   transfer of its bridged call; `replacement` is the Local `;1` half in its place), or
 *   `{ to: <its second call's id> }` -> 201 `{ firstLink, secondLink }` (attended: joins its two calls)
 * - `DELETE /calls/{id}` `{ cause? }` -> 204 (the caller hangs up)
 * - `GET /calls/{id}/heard` -> 200 `{ heard: [...] }`: what the caller heard of the audio applications
 *   sent on media sockets (`driver.heard`), each stretch with its bytes in base64
 * - `POST /texts` `{ endpoint, to, body, from? }` -> 204
 *
 * @example
 * answerDriverRequest(sim.driver, 'POST', '/calls', { to: '100' }); // { status: 201, body: { id } }
 */
export function answerDriverRequest(
  driver: SimulatorDriver,
  method: string,
  path: string,
  body: unknown,
): SimResponse {
  const fields: Body =
    body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
  const parts = path.split('/').filter((p) => p !== '');
  try {
    if (parts.length === 1 && parts[0] === 'calls' && method === 'POST') {
      const id = driver.placeCall({
        ...optionalString(fields, 'to'),
        ...optionalString(fields, 'from'),
        ...optionalString(fields, 'context'),
        ...optionalString(fields, 'app'),
        ...optionalString(fields, 'language'),
        ...optionalString(fields, 'callerName'),
        ...optionalString(fields, 'endpoint'),
        ...optionalString(fields, 'channelId'),
        ...(Array.isArray(fields.args) ? { args: fields.args.map(String) } : {}),
      });
      return { status: 201, body: { id } };
    }
    if (parts.length === 1 && parts[0] === 'texts' && method === 'POST') {
      driver.sendText({
        endpoint: requiredString(fields, 'endpoint'),
        to: requiredString(fields, 'to'),
        body: requiredString(fields, 'body'),
        ...optionalString(fields, 'from'),
      });
      return done;
    }
    if (parts[0] === 'calls' && parts[1] !== undefined) {
      const id = decodeURIComponent(parts[1]);
      const action = parts[2];
      if (parts.length === 2 && method === 'DELETE') {
        driver.hangup(id, optionalCause(fields));
        return done;
      }
      if (parts.length === 3 && action === 'dtmf' && method === 'POST') {
        const digits = requiredString(fields, 'digits');
        if (!/^[0-9A-D*#]+$/i.test(digits)) {
          return badRequest(`digits '${digits}' may only contain 0-9, A-D, * and #`);
        }
        driver.pressDigits(id, digits, {
          ...optionalNumber(fields, 'durationMs'),
          ...optionalNumber(fields, 'gapMs'),
        });
        return done;
      }
      if (parts.length === 3 && action === 'talk' && (method === 'POST' || method === 'DELETE')) {
        if (method === 'POST') driver.startTalking(id);
        else driver.stopTalking(id);
        return done;
      }
      if (parts.length === 3 && action === 'heard' && method === 'GET') {
        const heard = driver.heard(id).map(({ audio, ...stretch }) => ({
          ...stretch,
          audio: Buffer.from(audio).toString('base64'),
        }));
        return { status: 200, body: { heard } };
      }
      if (parts.length === 3 && action === 'transfer' && method === 'POST') {
        if (fields.to !== undefined)
          return { status: 201, body: driver.attendedTransfer(id, requiredString(fields, 'to')) };
        const exten = requiredString(fields, 'exten');
        const replacement = driver.blindTransfer(id, exten, optionalString(fields, 'context').context);
        return { status: 201, body: { replacement } };
      }
      if (parts.length === 3 && action === 'answer' && method === 'POST') {
        driver.answer(id);
        return done;
      }
      if (parts.length === 3 && action === 'reject' && method === 'POST') {
        driver.reject(id, optionalCause(fields) ?? 17);
        return done;
      }
    }
    return {
      status: 404,
      body: {
        message: `No driver operation ${method} ${DRIVER_ROOT}${path}; see the simulator's README (driver API)`,
      },
    };
  } catch (error) {
    const message = (error as Error).message;
    // The driver says "No live channel" for a call that ended or never was.
    return { status: message.startsWith('No live channel') ? 404 : 400, body: { message } };
  }
}

const done: SimResponse = { status: 204 };

class FieldError extends Error {}

function badRequest(message: string): SimResponse {
  return { status: 400, body: { message } };
}

function requiredString(fields: Body, name: string): string {
  const value = fields[name];
  if (typeof value !== 'string' || value === '')
    throw new FieldError(`field '${name}' (a string) is required`);
  return value;
}

function optionalString(fields: Body, name: string): Record<string, string> {
  const value = fields[name];
  if (value === undefined) return {};
  if (typeof value !== 'string') throw new FieldError(`field '${name}' must be a string`);
  return { [name]: value };
}

function optionalNumber(fields: Body, name: string): Record<string, number> {
  const value = fields[name];
  if (value === undefined) return {};
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new FieldError(`field '${name}' must be a number of milliseconds >= 0`);
  }
  return { [name]: value };
}

function optionalCause(fields: Body): number | undefined {
  const value = fields.cause;
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 127) {
    throw new FieldError("field 'cause' must be a Q.850 cause code (an integer 0-127)");
  }
  return value;
}
