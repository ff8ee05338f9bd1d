import { post } from './api.ts';
import { DialPad } from './DialPad.tsx';
import type { FlowDescription } from './types.ts';

/** Who calls: the flow, the caller's number and language. */
export interface CallerSettings {
  readonly flow: string;
  readonly from: string;
  readonly language: string;
}

/**
 * The softphone of `ringflow dev`: pick the flow, the caller's number and language, call, press
 * keys, talk or fall silent, hang up. It acts on the selected call.
 */
export function Softphone(props: {
  readonly flows: readonly FlowDescription[];
  readonly settings: CallerSettings;
  readonly onSettings: (settings: CallerSettings) => void;
  readonly selected: string | null;
  readonly onCalled: (id: string) => void;
  readonly onNotice: (text: string) => void;
}) {
  const { settings, selected } = props;
  const act = async (path: string, body: Record<string, unknown>) => {
    const reply = await post<{ id?: string }>(path, body);
    props.onNotice(reply.error ?? '');
    return reply;
  };
  const call = async () => {
    const reply = await act('call', {
      flow: settings.flow,
      from: settings.from,
      language: settings.language,
    });
    if (reply.id) props.onCalled(reply.id);
  };
  const onSelected = (path: string, body: Record<string, unknown> = {}) => {
    if (selected) void act(path, { call: selected, ...body });
  };
  return (
    <div class="softphone">
      <h2>Softphone</h2>
      <label>
        Flow{' '}
        <select
          id="flow"
          value={settings.flow}
          onChange={(e) => props.onSettings({ ...settings, flow: e.currentTarget.value })}
        >
          {props.flows.map((f) => (
            <option key={f.name}>{f.name}</option>
          ))}
        </select>
      </label>
      <br />
      <label>
        Caller{' '}
        <input
          id="from"
          value={settings.from}
          size={8}
          onInput={(e) => props.onSettings({ ...settings, from: e.currentTarget.value })}
        />
      </label>{' '}
      <label>
        Lang{' '}
        <input
          id="lang"
          value={settings.language}
          size={3}
          onInput={(e) => props.onSettings({ ...settings, language: e.currentTarget.value })}
        />
      </label>
      <br />
      <button type="button" id="call" onClick={() => void call()}>
        Call
      </button>
      <button type="button" id="hangup" onClick={() => onSelected('hangup')}>
        Hang up
      </button>
      <br />
      <DialPad onKey={(digits) => onSelected('dtmf', { digits })} />
      <button type="button" id="talk" onClick={() => onSelected('talk', { talking: 'true' })}>
        Talk
      </button>
      <button type="button" id="silence" onClick={() => onSelected('talk', { talking: 'false' })}>
        Silence
      </button>
    </div>
  );
}
