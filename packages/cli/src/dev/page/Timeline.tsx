import type { TimelineEntry } from './types.ts';

/** The selected call's timeline (every call's when none is selected), oldest first. */
export function Timeline(props: {
  readonly lines: readonly TimelineEntry[];
  readonly selected: string | null;
}) {
  const { selected } = props;
  return (
    <section>
      <h2>Timeline</h2>
      <div id="timeline">
        {props.lines
          .filter((e) => !selected || e.call === selected)
          .map((e, i) => (
            <div key={i} class={`k-${e.kind}`}>
              {`${new Date(e.at).toISOString().slice(11, 23)} ${e.text}`}
            </div>
          ))}
      </div>
    </section>
  );
}
