import { useRef, useState } from 'preact/hooks';
import { CallList } from './CallList.tsx';
import { Diagram } from './Diagram.tsx';
import { FarEnds } from './FarEnds.tsx';
import { FlowErrors } from './FlowErrors.tsx';
import { SaveCall } from './SaveCall.tsx';
import { Scenarios } from './Scenarios.tsx';
import { type CallerSettings, Softphone } from './Softphone.tsx';
import { StateSteps } from './StateSteps.tsx';
import { Timeline } from './Timeline.tsx';
import { useConsoleFeed } from './useConsoleFeed.ts';

/**
 * The console page. `live`: the read-only live view of `ringflow run --http` (no softphone or
 * scenarios, far ends shown but not acted on; a call is saved as a test by download). Otherwise
 * `ringflow dev`'s page.
 */
export function App({ live }: { readonly live: boolean }) {
  // `flow` undefined: the first flow, until one (or the dialplan) is picked.
  const [settings, setSettings] = useState<Omit<CallerSettings, 'flow'> & { flow?: string }>({
    extension: '',
    from: '1000',
    language: 'en',
  });
  const picked = useRef('');
  const { store } = useConsoleFeed(() => picked.current);
  const [selected, setSelected] = useState<string | null>(null);
  const [clicked, setClicked] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [saves, setSaves] = useState(0);
  const flows = store.flows;
  const flowName = settings.flow ?? flows[0]?.name ?? '';
  picked.current = flowName;
  const call = selected ? store.calls.get(selected) : undefined;
  const flow = flows.find((f) => f.name === (call ? call.flow : flowName)) ?? flows[0];
  const select = (id: string) => {
    store.call(id, flowName);
    setSelected(id);
  };
  return (
    <>
      <section>
        {live ? null : (
          <Softphone
            flows={flows}
            settings={{ ...settings, flow: flowName }}
            onSettings={setSettings}
            selected={selected}
            onCalled={select}
            onNotice={setNotice}
          />
        )}
        <FarEnds farEnds={store.farEnds} live={live} onNotice={setNotice} />
        <CallList calls={store.calls.values()} selected={selected} onSelect={select} />
        <SaveCall
          live={live}
          selected={selected}
          onNotice={setNotice}
          onSaved={() => setSaves((n) => n + 1)}
        />
        <div id="notice" role="status">
          {notice}
        </div>
        <FlowErrors flows={flows} />
      </section>
      <section>
        <h2>Diagram</h2>
        <Diagram flow={flow} call={call} onState={setClicked} />
        <StateSteps flow={flow} state={clicked} />
        {live ? null : <Scenarios version={saves} />}
      </section>
      <Timeline lines={store.lines} selected={selected} />
    </>
  );
}
