import { useEffect, useState } from 'preact/hooks';
import type { ConsoleRequests } from '../consoleRequests.ts';
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
  /** Whether the selected call has ended (nothing acts on it any more). */
  readonly selectedEnded: boolean;
  readonly onCalled: (id: string) => void;
  readonly onNotice: (text: string) => void;
}) {
  const { settings, selected } = props;
  const [dialplan, setDialplan] = useState<{ dialplan: string | null; context: string } | null>(null);
  useEffect(() => {
    void get<{ dialplan: string | null; context: string }>('softphone').then(setDialplan);
  }, []);
  const act = async <P extends keyof ConsoleRequests>(path: P, body: ConsoleRequests[P]) => {
    const reply = await post<{ id?: string }, P>(path, body);
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
  // The requests on the selected call (none when no call is selected).
  const hangup = () => selected && void act('hangup', { call: selected });
  const dtmf = (digits: string) => selected && void act('dtmf', { call: selected, digits });
  const talk = (talking: boolean) => selected && void act('talk', { call: selected, talking });
  const idle = !selected || props.selectedEnded;
  return (
    <div class="panel softphone">
      <h2>Softphone</h2>
      <div class="fields">
        <label class="field wide">
          <span>Flow</span>
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
        </label>
        <label class="field">
          <span>Ext</span>
          <input
            id="exten"
            value={settings.extension}
            placeholder="s"
            onInput={(e) => props.onSettings({ ...settings, extension: e.currentTarget.value })}
          />
        </label>
        <label class="field">
          <span>Caller</span>
          <input
            id="from"
            value={settings.from}
            onInput={(e) => props.onSettings({ ...settings, from: e.currentTarget.value })}
          />
        </label>
        <label class="field">
          <span>Lang</span>
          <input
            id="lang"
            value={settings.language}
            onInput={(e) => props.onSettings({ ...settings, language: e.currentTarget.value })}
          />
        </label>
      </div>
      <div class="phone-actions">
        <button type="button" id="call" class="primary" onClick={() => void call()}>
          Call
        </button>
        <button type="button" id="hangup" class="danger" disabled={idle} onClick={hangup}>
          Hang up
        </button>
      </div>
      <p class="on-call">
        {selected ? `On ${selected}${props.selectedEnded ? ' (ended)' : ''}` : 'No call selected'}
      </p>
      <DialPad disabled={idle} onKey={dtmf} />
      <div class="phone-actions">
        <button type="button" id="talk" disabled={idle} onClick={() => talk(true)}>
          Talk
        </button>
        <button type="button" id="silence" disabled={idle} onClick={() => talk(false)}>
          Silence
        </button>
      </div>
    </div>
  );
}
