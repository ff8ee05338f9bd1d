import type { OperationSpec } from '../spec.ts';

/** The operations of the `applications` resource. */
export const applicationsOperations = [
  {
    resource: 'applications',
    name: 'list',
    method: 'GET',
    path: '/applications',
    summary: 'Lists every application registered on the server.',
    params: [],
    returns: 'List[Application]',
    errors: [],
  },
  {
    resource: 'applications',
    name: 'get',
    method: 'GET',
    path: '/applications/{applicationName}',
    summary: 'Returns one application and what it is subscribed to.',
    params: [{ name: 'applicationName', in: 'path', type: 'string', required: true }],
    returns: 'Application',
    errors: [404],
  },
  {
    resource: 'applications',
    name: 'subscribe',
    method: 'POST',
    path: '/applications/{applicationName}/subscription',
    summary: 'Adds event sources (channel:, bridge:, endpoint:, deviceState:) to an application.',
    params: [
      { name: 'applicationName', in: 'path', type: 'string', required: true },
      { name: 'eventSource', in: 'query', type: 'string', required: true, allowMultiple: true },
    ],
    returns: 'Application',
    errors: [400, 404, 422],
  },
  {
    resource: 'applications',
    name: 'unsubscribe',
    method: 'DELETE',
    path: '/applications/{applicationName}/subscription',
    summary: 'Removes event sources from an application.',
    params: [
      { name: 'applicationName', in: 'path', type: 'string', required: true },
      { name: 'eventSource', in: 'query', type: 'string', required: true, allowMultiple: true },
    ],
    returns: 'Application',
    errors: [400, 404, 409, 422],
  },
  {
    resource: 'applications',
    name: 'filter',
    method: 'PUT',
    path: '/applications/{applicationName}/eventFilter',
    summary: 'Sets which event types an application receives (allowed / disallowed lists).',
    params: [
      { name: 'applicationName', in: 'path', type: 'string', required: true },
      { name: 'filter', in: 'body', type: 'object' },
    ],
    returns: 'Application',
    errors: [400, 404],
  },
] as const satisfies readonly OperationSpec[];
