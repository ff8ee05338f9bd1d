import type { OperationSpec } from '../spec.ts';

/** The operations of the `sounds` resource. */
export const soundsOperations = [
  {
    resource: 'sounds',
    name: 'list',
    method: 'GET',
    path: '/sounds',
    summary: 'Lists the sounds installed on the server.',
    params: [
      { name: 'lang', in: 'query', type: 'string' },
      { name: 'format', in: 'query', type: 'string' },
    ],
    returns: 'List[Sound]',
    errors: [],
  },
  {
    resource: 'sounds',
    name: 'get',
    method: 'GET',
    path: '/sounds/{soundId}',
    summary: 'Returns one sound and its languages and formats.',
    params: [{ name: 'soundId', in: 'path', type: 'string', required: true }],
    returns: 'Sound',
    errors: [],
  },
] as const satisfies readonly OperationSpec[];
