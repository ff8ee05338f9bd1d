import { useState } from 'preact/hooks';
import type { TimelineEntry, TimelineKind } from './types.ts';

/** The timeline's filters, and the kinds of line each one shows. */
const FILTERS: readonly { readonly name: string; readonly kinds: readonly TimelineKind[] }[] = [
  { name: 'events', kinds: ['event'] },
  { name: 'requests', kinds: ['request'] },
  { name: 'states', kinds: ['state', 'timer', 'end'] },
  { name: 'variables', kinds: ['vars', 'userEvent'] },
  { name: 'failures', kinds: ['failure', 'error'] },
];

const clock = (at: number) => new Date(at).toISOString().slice(11, 23);

/**
 * The timeline, oldest first: the selected call's lines only, or (with "all calls", or no call
 * selected) every call's, each labelled with its call. Filters by kind (events, requests, states,
 * variables, failures) and a search in the text.
 */
export function Timeline(props: {
  readonly lines: readonly TimelineEntry[];
  readonly selected: string | null;
}) {
  const { selected } = props;
  const [all, setAll] = useState(false);
  const [shown, setShown] = useState<ReadonlySet<string>>(() => new Set(FILTERS.map((f) => f.name)));
  const [search, setSearch] = useState('');
  const kinds = new Set(FILTERS.filter((f) => shown.has(f.name)).flatMap((f) => f.kinds));
  const everyCall = all || selected === null;
  const needle = search.trim().toLowerCase();
  const lines = props.lines.filter(
    (e) =>
      (everyCall || e.call === selected) &&
      kinds.has(e.kind) &&
      (needle === '' || e.text.toLowerCase().includes(needle) || e.call.toLowerCase().includes(needle)),
  );
  const toggle = (name: string) => {
    const next = new Set(shown);
    if (!next.delete(name)) next.add(name);
    setShown(next);
  };
  return (
    <section class="timeline-pane" aria-labelledby="timeline-title">
      <div class="pane-head">
        <h2 id="timeline-title">
          Timeline <span class="scope">{everyCall ? 'all calls' : selected}</span>
        </h2>
        <label class="check">
          <input
            type="checkbox"
            id="timeline-all"
            checked={everyCall}
            disabled={selected === null}
            onChange={(e) => setAll(e.currentTarget.checked)}
          />
          all calls
        </label>
      </div>
      <fieldset class="filters">
        <legend class="sr-only">Show lines of kind</legend>
        {FILTERS.map((f) => (
          <label key={f.name} class={`filter f-${f.name}${shown.has(f.name) ? ' on' : ''}`}>
            <input type="checkbox" checked={shown.has(f.name)} onChange={() => toggle(f.name)} />
            {f.name}
          </label>
        ))}
      </fieldset>
      <input
        type="search"
        id="timeline-search"
        class="search"
        placeholder="Search the timeline"
        aria-label="Search the timeline"
        value={search}
        onInput={(e) => setSearch(e.currentTarget.value)}
      />
      <ol id="timeline" aria-live="off">
        {lines.map((e, i) => (
          <li key={i} class={`line k-${e.kind}`} data-call={e.call}>
            <time>{clock(e.at)}</time>
            <span class="line-text">
              {everyCall ? <span class="line-call">{e.call || '—'}</span> : null}
              {e.text}
            </span>
          </li>
        ))}
      </ol>
      {lines.length === 0 ? <p class="muted">Nothing to show{needle ? ` for "${search}"` : ''}.</p> : null}
    </section>
  );
}
