import type { ConfigClass, ConfigStore } from './ConfigClass.ts';
import { uintField } from './configFieldKinds.ts';
import type { Mailboxes } from './Mailboxes.ts';

/**
 * The `res_mwi_external` class: its `mailboxes` objects live in the server's database (astdb), so
 * they can be created, changed and deleted, and they are the very mailboxes of `/mailboxes`.
 *
 * @example
 * const mwi = mwiConfigClass(mailboxes);
 */
export function mwiConfigClass(mailboxes: Mailboxes): ConfigClass {
  const store: ConfigStore = {
    retrieve(id) {
      const counts = mailboxes.readCounts(id);
      return counts && { msgs_new: String(counts.msgsNew), msgs_old: String(counts.msgsOld) };
    },
    create(id, values) {
      mailboxes.writeCounts(id, countsOf(values));
      return true;
    },
    update(id, values) {
      mailboxes.writeCounts(id, countsOf(values));
      return true;
    },
    delete(id) {
      return mailboxes.removeCounts(id);
    },
  };
  return {
    name: 'res_mwi_external',
    module: 'res_mwi_external.so',
    types: [{ name: 'mailboxes', fields: [uintField('msgs_new'), uintField('msgs_old')], store }],
  };
}

function countsOf(values: Readonly<Record<string, string>>) {
  return { msgsNew: Number(values.msgs_new ?? '0'), msgsOld: Number(values.msgs_old ?? '0') };
}
