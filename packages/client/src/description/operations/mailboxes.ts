import type { OperationSpec } from '../spec.ts';

/** The operations of the `mailboxes` resource. */
export const mailboxesOperations = [
  {
    resource: 'mailboxes',
    name: 'list',
    method: 'GET',
    path: '/mailboxes',
    summary: 'Lists the externally controlled mailboxes.',
    params: [],
    returns: 'List[Mailbox]',
    errors: [],
  },
  {
    resource: 'mailboxes',
    name: 'get',
    method: 'GET',
    path: '/mailboxes/{mailboxName}',
    summary: 'Returns one mailbox.',
    params: [{ name: 'mailboxName', in: 'path', type: 'string', required: true }],
    returns: 'Mailbox',
    errors: [404],
  },
  {
    resource: 'mailboxes',
    name: 'update',
    method: 'PUT',
    path: '/mailboxes/{mailboxName}',
    summary: 'Sets the message counts of a mailbox, creating it.',
    params: [
      { name: 'mailboxName', in: 'path', type: 'string', required: true },
      { name: 'oldMessages', in: 'query', type: 'int', required: true },
      { name: 'newMessages', in: 'query', type: 'int', required: true },
    ],
    returns: 'void',
    errors: [404],
  },
  {
    resource: 'mailboxes',
    name: 'delete',
    method: 'DELETE',
    path: '/mailboxes/{mailboxName}',
    summary: 'Removes a mailbox.',
    params: [{ name: 'mailboxName', in: 'path', type: 'string', required: true }],
    returns: 'void',
    errors: [404],
  },
] as const satisfies readonly OperationSpec[];
