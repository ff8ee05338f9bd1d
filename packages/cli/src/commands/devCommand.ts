import { parseArgs } from 'node:util';
import { type Command, parseCommandLine, UsageError } from '../Command.ts';
import { waitForProcessStop } from '../CommandIo.ts';
import { ExitCode } from '../ExitCode.ts';
import { parsePort } from '../parsePort.ts';

const HELP = `Usage: ringflow dev <flow.yaml ...> [--port N] [--host H] [--dialplan extensions.conf] [--sounds DIR]

Runs the flows on a simulated server (in this process, real time) and serves the console page:
a softphone to call a flow, press keys, talk and hang up, and answer, reject or hang up the far
ends its dial steps ring; the flow as a diagram with each call's active state lit and its path
drawn; a timeline per call (events in, requests out with their status, states and the timers they
arm, variables as they change, user events, step failures with their cause). Saving a flow file
reloads it: new calls take the new version, errors are shown on the page with file:line:col.

"Save as test" writes the selected call as a scenario file beside its flow
(<flow>.<call>.test.yaml): it replays what the caller and the far ends did, at the times they did
it, and expects what the flow did (the end, the states in order, each request and how many times).
The page replays it at once and says whether it passes; \`ringflow test\` runs it from then on.
The page also lists the *.test.yaml beside each flow and runs them (one or all), showing each
result and its timeline.

The simulator and the flows run on one simulated clock: Pause (P) stops it and holds the
server's events; Step (N) gives the flows one event (or moves time to the next timer) and shows
what it did to the state and the variables; Resume lets time run again.

The page plays the prompts of the selected call when their sound files are found: in --sounds
DIR, else in a server's sounds folder on this machine (/var/lib/asterisk/sounds,
/usr/share/asterisk/sounds), laid out as <dir>/<language>/<name>.<format> (wav, sln16, sln,
ulaw, alaw; gsm is not played). Tones and keys are synthesised.

A call goes straight into the flow picked, with the extension typed (default s) as the number
dialled. With --dialplan, the page can also call an extension through the dialplan (context
from-callers): the file's Stasis(<flow name>) lines send calls into the flows.

Options:
  --port <n>       port of the page (default 8089; 0 picks a free port)
  --host <address> address of the page (default 127.0.0.1, loopback only)
  --dialplan <file> an extensions.conf for the simulated server (calls to extensions)
  --sounds <dir>   a server's sounds folder the page plays prompts from
  -h, --help       show this help

Exit codes:
  0  stopped by SIGINT or SIGTERM
  1  a flow has errors or the port cannot be used
  2  wrong command line

Example:
  ringflow dev flows/ivr.yaml      # then open http://127.0.0.1:8089/
`;

/** `ringflow dev`: the local web console (see startDevConsole). */
export const devCommand: Command = {
  name: 'dev',
  summary: 'call your flows from a web console and watch them run',
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseCommandLine(() =>
      parseArgs({
        args: [...args],
        allowPositionals: true,
        options: {
          port: { type: 'string' },
          host: { type: 'string' },
          dialplan: { type: 'string' },
          sounds: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      }),
    );
    if (values.help) {
      io.stdout(HELP);
      return ExitCode.OK;
    }
    if (positionals.length === 0) throw new UsageError('give a flow file, e.g. ringflow dev flows/ivr.yaml');
    const port = values.port === undefined ? 8089 : parsePort(values.port, '--port');
    // Loaded here: the other commands never load the console, the simulator or the runtime for it.
    const { startDevConsole } = await import('../dev/startDevConsole.ts');
    let console_: Awaited<ReturnType<typeof startDevConsole>>;
    try {
      console_ = await startDevConsole({
        files: positionals,
        port,
        host: values.host ?? '127.0.0.1',
        ...(values.dialplan !== undefined ? { dialplanFile: values.dialplan } : {}),
        ...(values.sounds !== undefined ? { sounds: values.sounds } : {}),
      });
    } catch (error) {
      io.stderr(`ringflow dev: ${(error as Error).message}\n`);
      return ExitCode.FAILURE;
    }
    for (const warning of console_.warnings) io.stderr(`${warning}\n`);
    io.stdout(`ringflow dev: console on ${console_.url} (Ctrl-C stops)\n`);
    await (io.waitForStop ?? waitForProcessStop)(() => {});
    await console_.stop();
    return ExitCode.OK;
  },
};
