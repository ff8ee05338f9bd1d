/**
 * The files `ringflow init <name>` writes: a project that depends on the ringflow packages, with
 * one flow, its scenario file, a TypeScript entry running the flow on a server, a vitest test and
 * a README. Paths are relative to the project folder.
 */
export interface ProjectFile {
  readonly path: string;
  readonly text: string;
}

/** Versions of the tools the project uses; projectFiles.test.ts keeps them equal to this repository's. */
export const TOOL_VERSIONS = {
  '@types/node': '^20.19.43',
  tsx: '^4.23.15',
  typescript: '^5.9.3',
  vitest: '^4.1.12',
} as const;

/**
 * The Node versions a new project runs on: those of the packages (20.19 or later) and of vitest's
 * toolchain (on 22, 22.13 or later); test/packages/supportedNode.test.ts keeps them the repository's.
 */
export const PROJECT_NODE_ENGINES = '^20.19.0 || >=22.13.0';

/**
 * Dependencies whose install scripts a new project runs (npm 11 asks for each one): esbuild, which
 * tsx brings, checks its platform binary. The same as this repository's `allowScripts`.
 */
export const INSTALL_SCRIPTS_ALLOWED = { esbuild: true } as const;

/** The flow of a new project, and the name its application takes on a server. */
export const FLOW_FILE = 'flows/main-menu.yaml';

/**
 * Every file of a new project named `name`, depending on the ringflow packages at `version` from
 * the registry, or, with `packed` (every ringflow package's name to a `file:` tarball, from
 * `npm run pack`), on those tarballs: the project's own dependencies name them, and `overrides`
 * make the packages' dependencies on each other resolve to them too (npm takes overrides from the
 * project only, and requires `$name` for a package that is also a direct dependency).
 *
 * @example
 * projectFiles('my-ivr', '0.1.0').map((f) => f.path); // ['package.json', 'flows/main-menu.yaml', ...]
 * projectFiles('my-ivr', '0.1.0', { '@ringflow/cli': 'file:../packed/ringflow-cli-0.1.0.tgz', ... });
 */
export function projectFiles(
  name: string,
  version: string,
  packed?: Readonly<Record<string, string>>,
): ProjectFile[] {
  const ringflow = (pkg: string): string => packed?.[pkg] ?? `^${version}`;
  const dependencies = {
    '@ringflow/client': ringflow('@ringflow/client'),
    '@ringflow/dsl': ringflow('@ringflow/dsl'),
    '@ringflow/runtime': ringflow('@ringflow/runtime'),
  };
  const devDependencies = {
    '@ringflow/cli': ringflow('@ringflow/cli'),
    '@ringflow/testing': ringflow('@ringflow/testing'),
    ...TOOL_VERSIONS,
  };
  const direct = new Set([...Object.keys(dependencies), ...Object.keys(devDependencies)]);
  const overrides = packed
    ? Object.fromEntries(
        Object.entries(packed).map(([pkg, spec]) => [pkg, direct.has(pkg) ? `$${pkg}` : spec]),
      )
    : undefined;
  const packageJson = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: PROJECT_NODE_ENGINES },
    scripts: {
      demo: `ringflow run ${FLOW_FILE} --demo`,
      start: 'tsx src/main.ts',
      test: 'ringflow validate flows/ && ringflow test flows/ && vitest run',
      typecheck: 'tsc --noEmit',
    },
    dependencies,
    devDependencies,
    ...(overrides ? { overrides } : {}),
    allowScripts: INSTALL_SCRIPTS_ALLOWED,
  };
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'node16',
      moduleResolution: 'node16',
      types: ['node'],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    },
    include: ['src', 'test'],
  };
  return [
    { path: 'package.json', text: `${JSON.stringify(packageJson, null, 2)}\n` },
    { path: 'tsconfig.json', text: `${JSON.stringify(tsconfig, null, 2)}\n` },
    { path: '.gitignore', text: 'node_modules/\n' },
    { path: FLOW_FILE, text: FLOW },
    { path: FLOW_FILE.replace(/\.yaml$/, '.test.yaml'), text: SCENARIOS },
    { path: 'src/main.ts', text: MAIN },
    { path: 'test/main-menu.test.ts', text: TEST },
    { path: 'README.md', text: readme(name) },
  ];
}

const FLOW = `# yaml-language-server: $schema=../node_modules/@ringflow/dsl/schema/flow.schema.json
#
# A main menu: 1 rings sales (20 s), 2 says goodbye; three silences or wrong keys say goodbye too.
# Check it: npx ringflow validate flows/     Draw it: npx ringflow graph flows/main-menu.yaml
name: main-menu
start: menu
prompts:
  en: { menu: sound:demo-instruct, bye: sound:vm-goodbye }
states:
  menu:
    steps:
      - answer
      - menu:
          prompt: menu
          noInput: { max: 3 }
          choices: { "1": sales, "2": bye }
          on: { exhausted: bye }
  sales:
    steps:
      - dial: { endpoint: PJSIP/sales, timeout: 20s, on: { busy: bye, noAnswer: bye } }
    next: bye
  bye:
    steps: [{ play: { prompt: bye } }, hangup]
`;

const SCENARIOS = `# Scenarios of main-menu.yaml, in virtual time on the simulator: npx ringflow test flows/
# They are also the callers of the demo: npx ringflow run flows/main-menu.yaml --demo
flow: main-menu.yaml

scenarios:
  - name: key 1 dials sales, who is busy
    farEnds: { PJSIP/sales: busy }
    steps:
      - wait: 2s
      - press: "1"
      - expect:
          action: { operation: channels.originateWithId, params: { endpoint: PJSIP/sales } }
          visited: [menu, sales, bye]
          end: { status: completed, by: flow, within: 30s }

  - name: key 2 says goodbye
    steps:
      - wait: 2s
      - press: "2"
      - expect:
          notVisited: sales
          end: { status: completed, by: flow, within: 30s }

  - name: the caller hangs up during the menu
    steps:
      - wait: 1s
      - hangup
      - expect:
          end: { by: caller, within: 5s }
`;

const MAIN = `/**
 * The flow as an application on an ARI server (Asterisk: http.conf, ari.conf, and
 * Stasis(main-menu) in the dialplan):
 *
 *   ARI_URL=http://pbx.example.com:8088 ARI_USER=ringflow ARI_PASSWORD=secret npm start
 *
 * Ctrl-C stops: no new calls, calls in progress get 30 s to finish.
 */
import { createFlowCallMachine, loadFlowFile } from '@ringflow/dsl';
import { createApplication } from '@ringflow/runtime';

const flow = await loadFlowFile(new URL('../${FLOW_FILE}', import.meta.url).pathname);
const app = createApplication({
  servers: [
    {
      url: process.env.ARI_URL ?? 'http://127.0.0.1:8088',
      username: process.env.ARI_USER ?? 'asterisk',
      password: process.env.ARI_PASSWORD ?? 'asterisk',
    },
  ],
  apps: [flow.document.name],
  call: createFlowCallMachine(flow),
});
await app.start();
console.log(\`flow "\${flow.document.name}" is running; send calls with Stasis(\${flow.document.name})\`);

process.once('SIGINT', () => void app.drain({ deadlineMs: 30_000 }).then(() => app.stop()));
`;

const TEST = `import { loadFlowFile } from '@ringflow/dsl';
import { testFlow } from '@ringflow/testing';
import { it } from 'vitest';

const flow = await loadFlowFile(new URL('../${FLOW_FILE}', import.meta.url).pathname);

it('rings sales when the caller presses 1, then says goodbye when nobody answers', async () => {
  const call = await testFlow(flow, { farEnds: { 'PJSIP/sales': 'noAnswer' } });
  await call.wait('2s');
  await call.press('1');
  call.expectAction({ operation: 'channels.originateWithId', params: { endpoint: 'PJSIP/sales' } });
  await call.expectEnd({ status: 'completed', by: 'flow', within: '1m' });
  call.expectVisited('menu', 'sales', 'bye');
  await call.close();
});
`;

function readme(name: string): string {
  return `# ${name}

A telephony call flow built with [ringflow](https://www.npmjs.com/package/@ringflow/cli).

\`\`\`sh
npm install && npm run demo   # set up, then watch the flow answer simulated callers (embedded simulator)
npm test                      # validate the flow, run its scenarios and the vitest tests
\`\`\`

- \`${FLOW_FILE}\`: the flow (editors that read the \`$schema\` line complete and check it).
- \`${FLOW_FILE.replace(/\.yaml$/, '.test.yaml')}\`: its scenarios, in virtual time; they are the demo's callers too.
- \`test/main-menu.test.ts\`: the same flow tested from TypeScript (\`testFlow\`).
- \`src/main.ts\`: the flow on a real server: \`ARI_URL=http://pbx:8088 ARI_USER=u ARI_PASSWORD=p npm start\`.
`;
}
