import { useEffect, useState } from 'preact/hooks';
import { get, post } from './api.ts';
import { DialPad } from './DialPad.tsx';
import type { FlowDescription } from './types.ts';

/** The value of "dialplan" in the flow list: the call goes through the dialplan. */
export const THROUGH_DIALPLAN = '';

/** Who calls: the flow (or the dialplan), the extension dialled, the caller's number and language. */
export interface CallerSettings {
  readonly flow: string;
  readonly extension: string;
  readonly from: string;
  readonly language: string;
}

/**
 * The softphone of `ringflow dev`: pick the flow, the extension dialled, the caller's number and
 * language, call, press keys, talk or fall silent, hang up. It acts on the selected call. With a
 * dialplan (`ringflow dev --dialplan`), "dialplan" in the list calls the extension through it,
 * and the dialplan picks the flow.
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
  const [dialplan, setDialplan] = useState<{ dialplan: string | null; context: string } | null>(null);
  useEffect(() => {
    void get<{ dialplan: string | null; context: string }>('softphone').then(setDialplan);
  }, []);
  const act = async (path: string, body: Record<string, unknown>) => {
    const reply = await post<{ id?: string }>(path, body);
    props.onNotice(reply.error ?? '');
    return reply;
  };
  const call = async () => {
    const reply = await act('call', {
      flow: settings.flow,
      extension: settings.extension,
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
          {dialplan?.dialplan ? (
            <option value={THROUGH_DIALPLAN} title={`${dialplan.dialplan}, context ${dialplan.context}`}>
              dialplan
            </option>
          ) : null}
        </select>
      </label>{' '}
      <label>
        Ext{' '}
        <input
          id="exten"
          value={settings.extension}
          size={5}
          placeholder="s"
          onInput={(e) => props.onSettings({ ...settings, extension: e.currentTarget.value })}
        />
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
