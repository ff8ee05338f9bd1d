/**
 * The flow the step-through tests call: a menu whose key 1 leads to `picked`, which sets the
 * variable `team` (so that one event changes both the state and a variable).
 */
export const STEP_FLOW = `name: steps
prompts:
  en:
    hello: sound:hello-world
    bye: sound:vm-goodbye
vars:
  team: nobody
start: greet
on:
  hangup: done
states:
  greet:
    steps:
      - answer
      - menu:
          prompt: hello
          timeout: 60s
          choices:
            "1": picked
  picked:
    steps:
      - set: { team: sales }
      - play: { prompt: bye }
    after:
      60s: done
  done:
    final: true
`;
