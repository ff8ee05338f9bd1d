import type { OperationSpec } from '../spec.ts';

/** The operations of the `playbacks` resource. */
export const playbacksOperations = [
  {
    resource: 'playbacks',
    name: 'get',
    method: 'GET',
    path: '/playbacks/{playbackId}',
    summary: 'Returns one playback.',
    params: [{ name: 'playbackId', in: 'path', type: 'string', required: true }],
    returns: 'Playback',
    errors: [404],
  },
  {
    resource: 'playbacks',
    name: 'stop',
    method: 'DELETE',
    path: '/playbacks/{playbackId}',
    summary: 'Stops a playback.',
    params: [{ name: 'playbackId', in: 'path', type: 'string', required: true }],
    returns: 'void',
    errors: [404],
  },
  {
    resource: 'playbacks',
    name: 'control',
    method: 'POST',
    path: '/playbacks/{playbackId}/control',
    summary: 'Pauses, resumes, restarts, rewinds or fast-forwards a playback.',
    params: [
      { name: 'playbackId', in: 'path', type: 'string', required: true },
      {
        name: 'operation',
        in: 'query',
        type: 'string',
        required: true,
        enum: ['restart', 'pause', 'unpause', 'reverse', 'forward'],
      },
    ],
    returns: 'void',
    errors: [400, 404, 409],
  },
] as const satisfies readonly OperationSpec[];
