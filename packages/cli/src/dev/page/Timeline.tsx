import { useState } from 'preact/hooks';
import type { AgentTurn, TimelineEntry, TimelineKind } from './types.ts';

/** The timeline's filters, and the kinds of line each one shows. */
const FILTERS: readonly { readonly name: string; readonly kinds: readonly TimelineKind[] }[] = [
  { name: 'events', kinds: ['event'] },
  { name: 'requests', kinds: ['request'] },
  { name: 'states', kinds: ['state', 'timer', 'end'] },
  { name: 'variables', kinds: ['vars', 'userEvent'] },
  { name: 'failures', kinds: ['failure', 'error'] },
  { name: 'agent', kinds: ['agent'] },
];

/** Who an agent turn is of, as its line shows it: the caller, the bot, the flow, or the session. */
const TURN_SIDES: Readonly<Record<AgentTurn['kind'], string>> = {
  connected: 'session',
  unreachable: 'session',
  caller: 'caller',
  bot: 'bot',
  latency: 'session',
  interrupted: 'caller',
  key: 'caller',
  tool: 'bot',
  toolResult: 'flow',
  end: 'session',
  broken: 'session',
};

const clock = (at: number) => new Date(at).toISOString().slice(11, 23);

/**
 * The timeline, oldest first: the selected call's lines only, or (with "all calls", or no call
 * selected) every call's, each labelled with its call. Filters by kind (events, requests, states,
 * variables, failures, agent turns) and a search in the text. An agent step's turns have their
 * own look: the caller's words and the bot's as a conversation, interruptions, tools, the end.
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
      {/* Focusable: a long timeline scrolls from the keyboard too. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable from the keyboard (axe's scrollable-region-focusable, WCAG 2.1.1); the list itself is not interactive */}
      <ol id="timeline" aria-live="off" tabIndex={0} aria-labelledby="timeline-title">
        {lines.map((e, i) => (
          <li
            key={i}
            class={`line k-${e.kind}${e.turn ? ` turn t-${e.turn.kind} side-${TURN_SIDES[e.turn.kind]}` : ''}`}
            data-call={e.call}
            data-turn={e.turn?.kind}
          >
            <time>{clock(e.at)}</time>
            <span class="line-text">
              {everyCall ? <span class="line-call">{e.call || '—'}</span> : null}
              {e.turn ? <TurnText turn={e.turn} text={e.text} /> : e.text}
            </span>
          </li>
        ))}
      </ol>
      {lines.length === 0 ? <p class="muted">Nothing to show{needle ? ` for "${search}"` : ''}.</p> : null}
    </section>
  );
}

/** An agent turn's line: who (a badge), then what was said or done. */
function TurnText({ turn, text }: { readonly turn: AgentTurn; readonly text: string }) {
  if (turn.kind === 'caller' || turn.kind === 'bot')
    return (
      <>
        <span class="who">{turn.kind === 'caller' ? 'caller said' : 'bot said'}</span>
        <q class="said">{turn.text}</q>
      </>
    );
  return (
    <>
      <span class="who">{turn.kind === 'end' ? `session ${turn.outcome}` : TURN_SIDES[turn.kind]}</span>
      {text}
    </>
  );
}
