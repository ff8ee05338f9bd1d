import type { EventBus } from '../events/EventBus.ts';
import type { Params } from '../routing/readParams.ts';
import type { SimRequest, SimResponse } from '../transport.ts';
import type { World } from '../world/World.ts';
import type { Facilities } from '../world/Facilities.ts';

/** What a REST handler gets: the world, the bus, the facilities and the typed parameters. */
export interface HandlerContext {
  readonly world: World;
  readonly bus: EventBus;
  readonly facilities: Facilities;
  readonly params: Params;
  readonly request: SimRequest;
}

export type Handler = (ctx: HandlerContext) => SimResponse | Promise<SimResponse>;

/** Handlers of one resource, by operation name. */
export type HandlerTable = Readonly<Record<string, Handler>>;

/** 200 with a JSON body. */
export function ok(body: unknown): SimResponse {
  return { status: 200, body };
}

/** 201 with a JSON body (a playback or recording that was queued). */
export function created(body: unknown): SimResponse {
  return { status: 201, body };
}

/** 204, no body. */
export const NO_CONTENT: SimResponse = { status: 204 };

/** Reads a string parameter (the router already checked required ones). */
export function str(params: Params, name: string): string {
  const v = params[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v.join(',') : v === undefined ? '' : String(v);
}

/** Reads an optional string parameter. */
export function optStr(params: Params, name: string): string | undefined {
  const v = params[name];
  return v === undefined || v === '' ? undefined : str(params, name);
}

/** Reads a list parameter (`allowMultiple`). */
export function list(params: Params, name: string): string[] {
  const v = params[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map(String).filter((s) => s !== '');
}

/** Reads a numeric parameter with a fallback. */
export function num(params: Params, name: string, fallback: number): number {
  const v = params[name];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

/** Reads a boolean parameter. */
export function bool(params: Params, name: string): boolean {
  return params[name] === true;
}

/** Reads a `containers` body parameter (`variables`) as a plain object; anything else is empty. */
export function containers(params: Params, name: string): Record<string, unknown> {
  const v = params[name];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
