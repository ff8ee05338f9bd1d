import { readFile } from 'node:fs/promises';
import type { Contact } from '@ringflow/runtime';
import { parse as parseCsv } from 'csv-parse/sync';

/** A contact list's columns (CSV header, JSON keys) that are not flow inputs. */
const OWN_COLUMNS = ['id', 'endpoint', 'number', 'timezone'] as const;

/** What the flow declares: its inputs, to check each contact's against. */
export interface ContactRules {
  /** The flow's declared inputs (name → declaration), to tell inputs from typos. */
  readonly inputs: readonly string[];
  /** Converts one contact's inputs to the declared types; answers the problems by input name. */
  readonly convert: (
    inputs: Record<string, string | unknown>,
  ) => { ok: true; value: Record<string, unknown> } | { ok: false; problems: readonly string[] };
  /** The endpoint of a contact that has a `number` and no `endpoint` (`PJSIP/{number}`). */
  readonly endpointTemplate?: string;
  /** Checks a time zone name. */
  readonly isTimeZone: (zone: string) => boolean;
}

/** A problem of the contact list, with where it is (`contacts.csv:4`). */
export class ContactListError extends Error {
  override name = 'ContactListError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

/**
 * Reads a contact list: CSV with a header line, or JSON (an array of objects). Columns: `id`
 * (unique; default the number or endpoint), `endpoint` (`PJSIP/5550117`) or `number` (with an
 * endpoint template), `timezone` (IANA), and the flow's inputs. Every problem is reported, each
 * with its line (CSV) or index (JSON), the column and what was expected; nothing is dialled
 * from a list with problems.
 */
export async function readContacts(file: string, rules: ContactRules): Promise<Contact[]> {
  const text = await readFile(file, 'utf8');
  const rows: { where: string; values: Record<string, unknown> }[] = [];
  if (/\.json$/i.test(file)) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ContactListError([`${file}: not JSON (${(error as Error).message})`]);
    }
    if (!Array.isArray(data))
      throw new ContactListError([`${file}: expected an array of contacts ([{ "number": ... }, ...])`]);
    data.forEach((value, index) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new ContactListError([`${file}[${index}]: expected an object with the contact's fields`]);
      rows.push({ where: `${file}[${index}]`, values: value as Record<string, unknown> });
    });
  } else {
    let records: { record: Record<string, string>; info: { lines: number } }[];
    try {
      records = parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, info: true, bom: true });
    } catch (error) {
      throw new ContactListError([`${file}: ${(error as Error).message}`]);
    }
    for (const { record, info } of records) rows.push({ where: `${file}:${info.lines}`, values: record });
  }
  const problems: string[] = [];
  const contacts: Contact[] = [];
  const ids = new Map<string, string>();
  for (const { where, values } of rows) {
    const contact = toContact(where, values, rules, problems);
    if (!contact) continue;
    const first = ids.get(contact.id);
    if (first)
      problems.push(`${where}: id "${contact.id}" is already the contact of ${first}; ids must be unique`);
    else ids.set(contact.id, where);
    contacts.push(contact);
  }
  if (rows.length === 0) problems.push(`${file}: no contacts (a header line, then one contact per line)`);
  if (problems.length > 0) throw new ContactListError(problems);
  return contacts;
}

function toContact(
  where: string,
  values: Record<string, unknown>,
  rules: ContactRules,
  problems: string[],
): Contact | undefined {
  const known = new Set<string>([...OWN_COLUMNS, ...rules.inputs]);
  const before = problems.length;
  for (const column of Object.keys(values))
    if (!known.has(column))
      problems.push(
        `${where}: column "${column}" is neither a contact field (${OWN_COLUMNS.join(', ')}) nor an input of the flow (${rules.inputs.join(', ') || 'it declares none'})`,
      );
  const text = (name: string) => {
    const value = values[name];
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  const number = text('number');
  let endpoint = text('endpoint');
  if (endpoint === undefined && number !== undefined) {
    if (!rules.endpointTemplate)
      problems.push(
        `${where}: a number (${number}) and no endpoint: give --endpoint (e.g. 'PJSIP/{number}') or an endpoint column`,
      );
    else endpoint = rules.endpointTemplate.replaceAll('{number}', number);
  }
  if (endpoint === undefined) problems.push(`${where}: no endpoint and no number: who is to be called?`);
  else if (!/^[^/\s]+\/\S+$/.test(endpoint))
    problems.push(`${where}: endpoint "${endpoint}" is not tech/resource (PJSIP/5550117)`);
  const timezone = text('timezone');
  if (timezone !== undefined && !rules.isTimeZone(timezone))
    problems.push(
      `${where}: timezone "${timezone}" is not a time zone name (Europe/Paris, America/Chicago, UTC)`,
    );
  const given = Object.fromEntries(
    Object.entries(values).filter(([k, v]) => rules.inputs.includes(k) && v !== ''),
  );
  const converted = rules.convert(given);
  if (!converted.ok) for (const problem of converted.problems) problems.push(`${where}: ${problem}`);
  if (problems.length > before || endpoint === undefined) return undefined;
  return {
    id: text('id') ?? number ?? endpoint,
    endpoint,
    ...(timezone !== undefined ? { timezone } : {}),
    inputs: converted.ok ? converted.value : {},
  };
}
