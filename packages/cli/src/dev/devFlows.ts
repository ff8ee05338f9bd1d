import { type FSWatcher, watch } from 'node:fs';
import { resolve } from 'node:path';
import { describeFileError, type Flow, FlowValidationError, loadFlowFile } from '@ringflow/dsl';
import type { AnyStateMachine } from 'xstate';
import { describeFlows } from './describeFlows.ts';
import type { FlowDescription } from './feedMessages.ts';

/** A flow `ringflow dev` runs: its file, its current version and machine, its current error. */
export interface LoadedFlow {
  readonly file: string;
  flow: Flow;
  machine: AnyStateMachine;
  error?: string;
}

/**
 * The flows of `ringflow dev`, by name: read from their files (a file with errors, or two flows
 * of one name, stop the console before it starts), each with the call machine its calls run, and
 * read again whenever their file is saved (new calls take the new version; an error is kept to be
 * shown, the last good version goes on running).
 *
 * @example
 * const flows = await DevFlows.load(['flows/ivr.yaml'], (flow) => createFlowCallMachine(flow));
 * flows.watch(() => feed.send({ type: 'flows', flows: flows.describe() }));
 */
export class DevFlows {
  readonly byName = new Map<string, LoadedFlow>();
  private readonly watchers: FSWatcher[] = [];

  private constructor(private readonly machineOf: (flow: Flow) => AnyStateMachine) {}

  static async load(files: readonly string[], machineOf: (flow: Flow) => AnyStateMachine): Promise<DevFlows> {
    if (files.length === 0) throw new Error('give at least one flow file, e.g. ringflow dev flows/ivr.yaml');
    const flows = new DevFlows(machineOf);
    for (const file of files) {
      const flow = await loadFlowFile(file).catch((error: unknown) => {
        throw error instanceof FlowValidationError
          ? error
          : new Error(`${file}: ${describeFileError(error)}`);
      });
      const name = flow.document.name;
      if (flows.byName.has(name)) throw new Error(`${file}: two flows are named "${name}"`);
      flows.byName.set(name, { file: resolve(file), flow, machine: machineOf(flow) });
    }
    return flows;
  }

  /** The flows as the page draws them. */
  describe(): FlowDescription[] {
    return describeFlows(
      [...this.byName.entries()].map(([name, f]) => ({
        name,
        file: f.file,
        flow: f.flow,
        ...(f.error ? { error: f.error } : {}),
      })),
    );
  }

  /** The flows' names and files. */
  files(): { readonly name: string; readonly file: string }[] {
    return [...this.byName.entries()].map(([name, f]) => ({ name, file: f.file }));
  }

  /** Reads each flow again when its file is saved; `changed` is told after each read. */
  watch(changed: () => void): void {
    for (const loaded of this.byName.values())
      this.watchers.push(
        watch(loaded.file, () => {
          void loadFlowFile(loaded.file).then(
            (flow) => {
              loaded.flow = flow;
              loaded.machine = this.machineOf(flow);
              delete loaded.error;
              changed();
            },
            (error: unknown) => {
              loaded.error =
                error instanceof FlowValidationError
                  ? error.message
                  : `${loaded.file}: ${describeFileError(error)}`;
              changed();
            },
          );
        }),
      );
  }

  close(): void {
    for (const watcher of this.watchers) watcher.close();
  }
}
