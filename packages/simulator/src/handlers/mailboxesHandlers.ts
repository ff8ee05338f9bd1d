import { type HandlerTable, NO_CONTENT, ok, str } from './HandlerContext.ts';

/** Handlers of `/mailboxes`, over the mailbox store (effective while the external MWI module runs). */
export const mailboxesHandlers: HandlerTable = {
  list: ({ facilities }) => ok(facilities.mailboxes.list()),
  get: ({ facilities, params }) => ok(facilities.mailboxes.get(str(params, 'mailboxName'))),
  update: ({ facilities, params, request }) => {
    // The store takes the raw values: a non-numeric count is 0, as on the real server.
    const raw = (name: string) => request.query[name] ?? (params[name] as number | undefined);
    facilities.mailboxes.update(str(params, 'mailboxName'), raw('oldMessages'), raw('newMessages'));
    return NO_CONTENT;
  },
  delete: ({ facilities, params }) => {
    facilities.mailboxes.delete(str(params, 'mailboxName'));
    return NO_CONTENT;
  },
};
