import { useEffect, useRef, useState } from 'preact/hooks';
import { CallList } from './CallList.tsx';
import { ClockControls } from './ClockControls.tsx';
import { Details } from './Details.tsx';
import { Diagram, type DiagramPick } from './Diagram.tsx';
import { FlowErrors } from './FlowErrors.tsx';
import { SaveCall } from './SaveCall.tsx';
import { Scenarios } from './Scenarios.tsx';
import { useBotVoice } from './BotVoice.ts';
import { CallAudio } from './CallAudio.ts';
import { useCallLine } from './CallLine.ts';
import { get } from './api.ts';
import { type CallerSettings, Softphone, type SoftphoneSetup } from './Softphone.tsx';
import { useCallSounds } from './Speaker.tsx';
import { Steps } from './Steps.tsx';
import { Timeline } from './Timeline.tsx';
import type { FlowDescription } from './types.ts';
import { useConsoleFeed } from './useConsoleFeed.ts';

/** Whether a flow has an agent step (its caller can be given words to say to the bot). */
function hasAgentStep(flow: FlowDescription): boolean {
  return Object.values(flow.states).some((steps) =>
    steps.some((s) => typeof s.step === 'object' && s.step !== null && 'agent' in s.step),
  );
}

/** The time now, renewed every second while `ticking` (the durations of calls in progress). */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return ticking ? Math.max(now, Date.now()) : now;
}

/**
 * The console page. `live`: the read-only live view of `ringflow run --http` (no softphone or
 * scenarios, far ends shown but not acted on; a call is saved as a test by download). Otherwise
 * `ringflow dev`'s page. Three columns: the phone and the calls; the diagram with what is
 * picked on it (and the scenarios); the timeline.
 */
export function App({ live }: { readonly live: boolean }) {
  // `flow` undefined: the first flow, until one (or the dialplan) is picked.
  const [settings, setSettings] = useState<Omit<CallerSettings, 'flow'> & { flow?: string }>({
    extension: '',
    from: '1000',
    language: 'en',
  });
  const picked = useRef('');
  const { store, version, connection } = useConsoleFeed(() => picked.current);
  // The selected call's sounds, played in the page (what plays changing renders it again).
  const [, setHeard] = useState(0);
  const [audio] = useState(() => new CallAudio(() => setHeard((n) => n + 1)));
  const [soundOn, setSoundOn] = useState(true);
  const [selected, setSelected] = useState<string | null>(null);
  // Where the feed stood when the page placed the selected call (its bot is heard from there).
  const [speakFrom, setSpeakFrom] = useState<number | undefined>(undefined);
  const placing = useRef(0);
  const [pick, setPick] = useState<DiagramPick | null>(null);
  const [notice, setNotice] = useState('');
  const [saves, setSaves] = useState(0);
  // The lower pane shows what is picked on the diagram, or what each event did (the steps).
  const [tab, setTab] = useState<'details' | 'steps'>('details');
  const paused = store.clock?.paused ?? false;
  const [setup, setSetup] = useState<SoftphoneSetup | null>(null);
  useEffect(() => {
    if (!live) void get<SoftphoneSetup>('softphone').then(setSetup);
  }, []);
  useCallSounds(audio, store.sounds, {
    selected: live ? null : selected,
    on: soundOn,
    files: !!setup?.sounds,
    paused,
    version,
  });
  useBotVoice(store.lines, {
    selected: live ? null : selected,
    on: soundOn,
    paused,
    version,
    speakFrom,
  });
  // Pausing the time shows the steps: each step adds one.
  useEffect(() => {
    if (paused) setTab('steps');
  }, [paused]);
  const flows = store.flows;
  const flowName = settings.flow ?? flows[0]?.name ?? '';
  picked.current = flowName;
  const call = selected ? store.calls.get(selected) : undefined;
  // The selected call's line while it goes on: its bot's own audio, and the microphone's voice.
  const line = useCallLine(audio, {
    call: live || !call || call.ended ? null : call.id,
    placed: speakFrom !== undefined,
    on: soundOn,
  });
  const flow = flows.find((f) => f.name === (call ? call.flow : flowName)) ?? flows[0];
  const calls = [...store.calls.values()].reverse();
  const pageNow = useNow(calls.some((c) => !c.ended) || (store.clock !== null && !paused));
  // Durations and the clock in the server's (simulated) time.
  const now = store.serverNow(pageNow);
  const select = (id: string, placedAt?: number) => {
    store.call(id, flowName);
    setSelected(id);
    setSpeakFrom(placedAt);
  };
  const title = live ? 'live' : 'dev';
  return (
    <>
      <header class="top">
        <span class="brand">
          ringflow <span class="mode">{title}</span>
        </span>
        <span class="flow-name" title={flow?.file}>
          {flow ? `${flow.name} · ${flow.file.split('/').pop()}` : ''}
        </span>
        {live || !store.loaded ? null : <ClockControls clock={store.clock} now={now} onNotice={setNotice} />}
        <span class={`conn conn-${connection}`} role="status">
          {connection === 'loading' ? 'loading…' : connection === 'live' ? 'connected' : 'reconnecting…'}
        </span>
      </header>
      {!store.loaded ? (
        <main class="loading" aria-busy="true">
          <div class="spinner" aria-hidden="true" />
          <p>Loading the flows and the calls…</p>
        </main>
      ) : (
        <main class={`grid${live ? ' live' : ''}`}>
          <aside class="left" aria-label={live ? 'Calls' : 'Phone and calls'}>
            {live ? null : (
              <Softphone
                flows={flows}
                settings={{ ...settings, flow: flowName }}
                onSettings={setSettings}
                selected={selected}
                selectedEnded={!!call?.ended}
                selectedAgent={!!call?.agent && !call.ended}
                selectedAudioAgent={!!call?.agentAudio && !call.ended}
                line={line}
                agentFlow={!!flow && hasAgentStep(flow)}
                onCalling={() => {
                  placing.current = store.lines.length;
                }}
                onCalled={(id) => select(id, placing.current)}
                onNotice={setNotice}
                audio={audio}
                setup={setup}
                soundOn={soundOn}
                onSoundOn={setSoundOn}
              />
            )}
            <div id="notice" role="status" class={notice ? 'notice' : ''}>
              {notice}
            </div>
            <CallList
              calls={calls}
              farEndsOf={(id) => store.farEndsOf(id)}
              selected={selected}
              now={now}
              live={live}
              onSelect={(id) => select(id)}
              onNotice={setNotice}
            />
            <SaveCall
              live={live}
              selected={selected}
              onNotice={setNotice}
              onSaved={() => setSaves((n) => n + 1)}
            />
          </aside>
          <section class="center" aria-label="Flow">
            <FlowErrors flows={flows} />
            <Diagram flow={flow} call={call} picked={pick} onPick={setPick} />
            <div class="lower">
              <section class="panel details-pane" aria-label={tab === 'steps' ? 'Steps' : 'Details'}>
                <div class="tabs" role="tablist" aria-label="Lower pane">
                  {(['details', 'steps'] as const).map((name) => (
                    <button
                      type="button"
                      role="tab"
                      key={name}
                      id={`tab-${name}`}
                      aria-selected={tab === name}
                      aria-controls="lower-tab"
                      class={`tab${tab === name ? ' on' : ''}`}
                      onClick={() => setTab(name)}
                    >
                      {name === 'details' ? 'Details' : `Steps${call ? ` ${call.steps.length}` : ''}`}
                    </button>
                  ))}
                </div>
                <div id="lower-tab" role="tabpanel" aria-labelledby={`tab-${tab}`}>
                  {tab === 'details' ? <Details flow={flow} picked={pick} /> : <Steps call={call} />}
                </div>
              </section>
              {live ? null : <Scenarios version={saves} />}
            </div>
          </section>
          <Timeline lines={store.lines} selected={selected} />
        </main>
      )}
    </>
  );
}
