import type { OperationSpec } from '../spec.ts';

/** The operations of the `events` resource. */
export const eventsOperations = [
  {
    resource: 'events',
    name: 'eventWebsocket',
    method: 'GET',
    path: '/events',
    summary: 'Opens the WebSocket event stream for one or more applications.',
    upgrade: 'websocket',
    params: [
      { name: 'app', in: 'query', type: 'string', required: true, allowMultiple: true },
      { name: 'subscribeAll', in: 'query', type: 'boolean' },
    ],
    returns: 'Message',
    errors: [],
  },
  {
    resource: 'events',
    name: 'userEvent',
    method: 'POST',
    path: '/events/user/{eventName}',
    summary: 'Raises a user-defined event to an application.',
    params: [
      { name: 'eventName', in: 'path', type: 'string', required: true },
      { name: 'application', in: 'query', type: 'string', required: true },
      { name: 'source', in: 'query', type: 'string', allowMultiple: true },
      { name: 'variables', in: 'body', type: 'containers' },
    ],
    returns: 'void',
    errors: [400, 404, 422],
  },
  {
    resource: 'events',
    name: 'claimChannel',
    method: 'POST',
    path: '/events/claim',
    summary: 'Claims a broadcast channel for this application.',
    since: '>1.10.0',
    params: [
      { name: 'channelId', in: 'query', type: 'string', required: true },
      { name: 'application', in: 'query', type: 'string', required: true },
    ],
    returns: 'void',
    errors: [404, 409],
  },
] as const satisfies readonly OperationSpec[];
