/** The small flow the console's browser tests call: a menu whose key 1 leads to sales, a flow-wide hang-up handler. */
export const DESK_FLOW = `name: desk
prompts:
  en:
    hello: sound:hello-world
    sales: sound:queue-periodic-announce
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
            "1": sales
    after:
      5m: done
  sales:
    steps:
      - play: { prompt: sales }
    after:
      60s: done
  done:
    final: true
`;
