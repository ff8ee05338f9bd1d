import { useEffect, useRef, useState } from 'preact/hooks';
import type { ConsoleRequests } from '../consoleRequests.ts';
import { post } from './api.ts';
import type { CallAudio } from './CallAudio.ts';
import type { CallLine } from './CallLine.ts';
import { DialPad } from './DialPad.tsx';
import { MicTalk } from './MicTalk.ts';
import { MicVoice } from './MicVoice.ts';
import { NowPlaying, Speaker } from './Speaker.tsx';
import type { FlowDescription } from './types.ts';

/** The value of "dialplan" in the flow list: the call goes through the dialplan. */
export const THROUGH_DIALPLAN = '';

/**
 * How the caller talks: with the Talk and Silence buttons, the same with a tone heard, or the
 * microphone (its voice to a bot of the audio protocol, its level elsewhere).
 */
type TalkWith = 'buttons' | 'tone' | 'microphone';

/** The microphone in use (a caller who was talking falls silent when it closes). */
interface OpenMicrophone {
  close(talk: (talking: boolean) => void): void;
}

/** What `api/softphone` says: the dialplan the page calls through, and where sounds come from. */
export interface SoftphoneSetup {
  readonly dialplan: string | null;
  readonly context: string;
  readonly sounds: string | null;
}

/** Who calls: the flow (or the dialplan), the extension dialled, the caller's number and language. */
export interface CallerSettings {
  readonly flow: string;
  readonly extension: string;
  readonly from: string;
  readonly language: string;
}

/**
 * The softphone of `ringflow dev`: pick the flow, the extension dialled, the caller's number and
 * language, call, press keys, talk or fall silent, type words the caller says to an agent step
 * (its bot), hang up. It acts on the selected call. With a
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
  /** Whether the selected call is in an agent step now (typed words are spoken to its bot). */
  readonly selectedAgent: boolean;
  /** Whether that step's bot speaks the audio protocol (the microphone's voice goes to it). */
  readonly selectedAudioAgent: boolean;
  /** The selected call's line (its bot's audio; the microphone's voice), while it is open. */
  readonly line: CallLine | null;
  /** Whether the flow has agent steps (the box for the caller's words is shown). */
  readonly agentFlow: boolean;
  /** Called as the call is placed, before the server names it (`onCalled`). */
  readonly onCalling: () => void;
  readonly onCalled: (id: string) => void;
  readonly onNotice: (text: string) => void;
  readonly audio: CallAudio;
  /** What api/softphone said (null until it did). */
  readonly setup: SoftphoneSetup | null;
  readonly soundOn: boolean;
  readonly onSoundOn: (on: boolean) => void;
}) {
  const { settings, selected, audio } = props;
  const dialplan = props.setup;
  const [talkWith, setTalkWith] = useState<TalkWith>('buttons');
  const [level, setLevel] = useState(0);
  const [words, setWords] = useState('');
  // The tone heard while the caller talks (talking with a tone), and the microphone.
  const voice = useRef<(() => void) | null>(null);
  const mic = useRef<OpenMicrophone | null>(null);
  const act = async <P extends keyof ConsoleRequests>(path: P, body: ConsoleRequests[P]) => {
    const reply = await post<{ id?: string }, P>(path, body);
    props.onNotice(reply.error ?? '');
    return reply;
  };
  const call = async () => {
    // The click lets the browser start the call's sounds.
    if (props.soundOn) void audio.audioContext().resume();
    props.onCalling();
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
  const dtmf = (digits: string) => {
    if (!selected) return;
    if (props.soundOn) audio.dtmf(digits);
    void act('dtmf', { call: selected, digits });
  };
  const talk = (talking: boolean) => {
    if (!selected) return;
    if (talkWith === 'tone' && talking && !voice.current) voice.current = audio.voice();
    if (!talking) {
      voice.current?.();
      voice.current = null;
    }
    void act('talk', { call: selected, talking });
  };
  const idle = !selected || props.selectedEnded;
  // Typed words, said by the caller to the agent step (the box keeps them when refused).
  const say = async (event: Event) => {
    event.preventDefault();
    if (!selected || words.trim() === '') return;
    const reply = await act('say', { call: selected, text: words });
    if (!reply.error) setWords('');
  };
  // The microphone talks for the selected call while it goes on: its voice, on the line, to a bot
  // of the audio protocol; elsewhere its level (talk detection).
  const line = props.selectedAudioAgent ? props.line : null;
  useEffect(() => {
    if (talkWith !== 'microphone' || idle || !selected) return;
    let closed = false;
    const call = selected;
    const tell = (talking: boolean) => void act('talk', { call, talking });
    const opening: Promise<OpenMicrophone> = line
      ? MicVoice.open(audio.audioContext(), (frame) => line.send(frame), setLevel, audio.held)
      : MicTalk.open(audio.audioContext(), tell, setLevel, audio.held);
    void opening.then(
      (opened) => {
        if (closed) opened.close(tell);
        else mic.current = opened;
      },
      (error: Error) => props.onNotice(`the microphone cannot be used: ${error.message}`),
    );
    return () => {
      closed = true;
      mic.current?.close(tell);
      mic.current = null;
      setLevel(0);
    };
  }, [talkWith, idle, selected, line]);
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
      {talkWith === 'microphone' ? (
        <meter
          id="mic-level"
          class="mic-level"
          data-sends={line ? 'voice' : 'level'}
          title={line ? 'Your voice goes to the bot' : 'Its level drives talk detection'}
          aria-label="Microphone level"
          min={0}
          max={0.2}
          high={0.02}
          value={Math.min(level, 0.2)}
        />
      ) : (
        <div class="phone-actions">
          <button type="button" id="talk" disabled={idle} onClick={() => talk(true)}>
            Talk
          </button>
          <button type="button" id="silence" disabled={idle} onClick={() => talk(false)}>
            Silence
          </button>
        </div>
      )}
      {props.agentFlow ? (
        <form class="say-form" onSubmit={(e) => void say(e)}>
          <input
            id="say-text"
            aria-label="Words the caller says to the bot"
            placeholder={props.selectedAgent ? 'Say to the bot…' : 'Words for a bot'}
            title="Typed words, said by the caller to the call's agent step (its bot)"
            value={words}
            disabled={idle || !props.selectedAgent}
            onInput={(e) => setWords(e.currentTarget.value)}
          />
          <button type="submit" id="say" disabled={idle || !props.selectedAgent || words.trim() === ''}>
            Say
          </button>
        </form>
      ) : null}
      <div class="talk-row">
        <label class="field">
          <span>Talk with</span>
          <select
            id="talk-with"
            value={talkWith}
            onChange={(e) => setTalkWith(e.currentTarget.value as TalkWith)}
          >
            <option value="buttons">the buttons</option>
            <option value="tone">the buttons, with a tone</option>
            <option
              value="microphone"
              title="Its voice to a bot of the audio protocol; elsewhere its level (talk detection)"
            >
              the microphone
            </option>
          </select>
        </label>
        <Speaker
          audio={audio}
          on={props.soundOn}
          onToggle={props.onSoundOn}
          folder={dialplan?.sounds ?? null}
        />
      </div>
      <NowPlaying audio={audio} />
    </div>
  );
}
