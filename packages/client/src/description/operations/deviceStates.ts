import type { OperationSpec } from '../spec.ts';

/** The operations of the `deviceStates` resource. */
export const deviceStatesOperations = [
  {
    resource: 'deviceStates',
    name: 'list',
    method: 'GET',
    path: '/deviceStates',
    summary: 'Lists the device states this interface controls.',
    params: [],
    returns: 'List[DeviceState]',
    errors: [],
  },
  {
    resource: 'deviceStates',
    name: 'get',
    method: 'GET',
    path: '/deviceStates/{deviceName}',
    summary: 'Returns the state of any device.',
    params: [{ name: 'deviceName', in: 'path', type: 'string', required: true }],
    returns: 'DeviceState',
    errors: [],
  },
  {
    resource: 'deviceStates',
    name: 'update',
    method: 'PUT',
    path: '/deviceStates/{deviceName}',
    summary: 'Sets the state of a controlled device (name starting with Stasis:), creating it.',
    params: [
      { name: 'deviceName', in: 'path', type: 'string', required: true },
      {
        name: 'deviceState',
        in: 'query',
        type: 'string',
        required: true,
        enum: ['NOT_INUSE', 'INUSE', 'BUSY', 'INVALID', 'UNAVAILABLE', 'RINGING', 'RINGINUSE', 'ONHOLD'],
      },
    ],
    returns: 'void',
    errors: [404, 409],
  },
  {
    resource: 'deviceStates',
    name: 'delete',
    method: 'DELETE',
    path: '/deviceStates/{deviceName}',
    summary: 'Removes a controlled device.',
    params: [{ name: 'deviceName', in: 'path', type: 'string', required: true }],
    returns: 'void',
    errors: [404, 409],
  },
] as const satisfies readonly OperationSpec[];
