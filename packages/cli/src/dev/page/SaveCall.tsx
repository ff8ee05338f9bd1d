import { useState } from 'preact/hooks';
import { get, post } from './api.ts';
import type { SavedCall } from './types.ts';

/**
 * "Save as test": the selected call as a scenario file, replayed at once. `ringflow dev` writes it
 * beside the flow (never over an existing file); the live view of a production process offers it
 * as a download instead (nothing is written on the server), see liveView.ts.
 */
export function SaveCall(props: {
  readonly live: boolean;
  readonly selected: string | null;
  readonly onNotice: (text: string) => void;
  readonly onSaved: () => void;
}) {
  const [saved, setSaved] = useState<SavedCall | 'saving' | null>(null);
  const save = async () => {
    if (!props.selected) return;
    setSaved('saving');
    const reply = props.live
      ? await get<SavedCall>(`calls/${encodeURIComponent(props.selected)}/scenario`)
      : await post<SavedCall>('save', { call: props.selected });
    props.onNotice(reply.error ?? '');
    if (reply.error) {
      setSaved(null);
      return;
    }
    if (props.live && reply.fileName) download(reply.fileName, reply.yaml);
    setSaved(reply);
    props.onSaved();
  };
  const title = props.live
    ? 'Download the selected call as a scenario file, to keep beside its flow'
    : 'Save the selected call as a scenario file beside its flow';
  return (
    <div class="panel save">
      <button type="button" id="save" title={title} disabled={!props.selected} onClick={() => void save()}>
        Save as test
      </button>
      <div id="saved" aria-live="polite">
        {saved === 'saving' ? 'saving…' : saved ? <SavedResult saved={saved} /> : null}
      </div>
    </div>
  );
}

function SavedResult({ saved }: { readonly saved: SavedCall }) {
  const passed = saved.replay?.passed === true;
  const where = saved.file !== undefined ? `Saved ${saved.file}` : `Downloaded ${saved.fileName}`;
  return (
    <>
      <div class={`result ${passed ? 'pass' : 'fail'}`}>
        {`${where} — replay ${passed ? 'passed ✓' : 'FAILED ✗'}`}
      </div>
      {!passed && saved.replay?.failure ? (
        <pre>{`${saved.replay.failure.step}\n${saved.replay.failure.message}`}</pre>
      ) : null}
      <details>
        <summary>scenario</summary>
        <pre class="yaml">{saved.yaml}</pre>
      </details>
    </>
  );
}

/** Hands `text` to the browser as a file to save (the browser never overwrites one: it renames). */
function download(fileName: string, text: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
