import { useEffect, useState } from 'preact/hooks';
import { get, post } from './api.ts';
import type { ScenarioFile, ScenarioResult } from './types.ts';

const fileName = (file: string) => file.split('/').pop() ?? file;

/**
 * The flows' scenario files (`*.test.yaml` beside them): run one scenario or all of a file, and
 * see each result, the failing step with its place, and each scenario's timeline. `version`
 * changes when the list may have (a call was saved as a test).
 */
export function Scenarios(props: { readonly version: number }) {
  const [files, setFiles] = useState<readonly ScenarioFile[]>([]);
  const [results, setResults] = useState<
    | { readonly file: string; readonly results: readonly ScenarioResult[] }
    | { readonly error: string }
    | 'running'
    | null
  >(null);
  const load = async () => setFiles(await get<ScenarioFile[]>('scenarios'));
  useEffect(() => {
    void load();
  }, [props.version]);
  const run = async (file: string, scenario?: string) => {
    setResults('running');
    const reply = await post<{ file: string; results: ScenarioResult[] }>('scenarios/run', {
      file,
      scenario,
    });
    setResults(reply.error ? { error: reply.error } : reply);
  };
  return (
    <section class="panel scenarios" aria-labelledby="scenarios-title">
      <div class="pane-head">
        <h2 id="scenarios-title">Scenarios</h2>
        <button type="button" id="refresh-scenarios" class="small" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <div id="scenarios">
        {files.length === 0 ? (
          <p class="muted">No scenario file beside the flows yet: save a call as a test.</p>
        ) : null}
        {files.map((f) => (
          <div class="sfile" key={f.file}>
            <b title={f.file}>{fileName(f.file)}</b>{' '}
            {f.problems.length > 0 ? (
              <pre>{f.problems.join('\n')}</pre>
            ) : (
              <>
                <button type="button" class="small" onClick={() => void run(f.file)}>
                  Run all
                </button>
                {f.scenarios.map((name) => (
                  <div key={name}>
                    <button type="button" class="small" title={name} onClick={() => void run(f.file, name)}>
                      Run
                    </button>{' '}
                    {name}
                  </div>
                ))}
              </>
            )}
          </div>
        ))}
      </div>
      <div id="scenario-results">
        {results === 'running' ? (
          'running…'
        ) : results && 'error' in results ? (
          <pre>{results.error}</pre>
        ) : results ? (
          <Results {...results} />
        ) : null}
      </div>
    </section>
  );
}

function Results(props: { readonly file: string; readonly results: readonly ScenarioResult[] }) {
  const passed = props.results.filter((r) => r.passed).length;
  return (
    <>
      <div class="summary">{`${fileName(props.file)}: ${passed} passed, ${props.results.length - passed} failed`}</div>
      {props.results.map((r) => (
        <details key={r.scenario} class={`result ${r.passed ? 'pass' : 'fail'}`}>
          <summary>{`${r.passed ? '✓' : '✗'} ${r.scenario}`}</summary>
          {r.failure ? <pre>{`${r.failure.step}\n${r.failure.message}`}</pre> : null}
          <pre class="timeline">{r.timeline.join('\n')}</pre>
        </details>
      ))}
    </>
  );
}
