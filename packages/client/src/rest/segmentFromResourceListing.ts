import type { ServerSegment } from './ServerSegment.ts';

/** Where the resource listing lives, below the interface root. */
export const RESOURCE_LISTING_PATH = '/api-docs/resources.json';

function apiPath(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (entry && typeof entry === 'object' && 'path' in entry && typeof entry.path === 'string')
    return entry.path;
  return undefined;
}

/**
 * Reads the server-level segment from a Swagger resource listing (`GET /api-docs/resources.json`):
 * a real server lists `/api-docs/asterisk.{format}`, a server that follows the specification
 * `/api-docs/core.{format}`. Returns undefined when the listing names neither.
 *
 * @example
 * segmentFromResourceListing({ apis: [{ path: '/api-docs/core.{format}' }] }); // 'core'
 */
export function segmentFromResourceListing(listing: unknown): ServerSegment | undefined {
  if (!listing || typeof listing !== 'object' || !('apis' in listing) || !Array.isArray(listing.apis)) {
    return undefined;
  }
  for (const entry of listing.apis) {
    const match = /\/api-docs\/(asterisk|core)\.[^/]*$/.exec(apiPath(entry) ?? '');
    if (match) return match[1] as ServerSegment;
  }
  return undefined;
}
