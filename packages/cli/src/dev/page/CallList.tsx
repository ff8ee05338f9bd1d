import type { CallView } from './ConsoleStore.ts';

/** The calls seen, each with its state; picking one selects it (diagram, timeline, save). */
export function CallList(props: {
  readonly calls: Iterable<CallView>;
  readonly selected: string | null;
  readonly onSelect: (id: string) => void;
}) {
  return (
    <>
      <h2>Calls</h2>
      <div id="calls" role="listbox" aria-label="Calls">
        {[...props.calls].map((c) => (
          <div
            key={c.id}
            role="option"
            tabIndex={0}
            aria-selected={c.id === props.selected}
            class={`call${c.id === props.selected ? ' sel' : ''}`}
            onClick={() => props.onSelect(c.id)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') props.onSelect(c.id);
            }}
          >
            {`${c.id} · ${c.state ?? '…'}${c.ended ? ' · ended' : ''}`}
          </div>
        ))}
      </div>
    </>
  );
}
