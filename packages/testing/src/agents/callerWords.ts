/**
 * How long the simulated caller takes per word it says (a scenario's `say:`, the console's typed
 * words): the one figure the harness, saved scenarios and the console agree on.
 */
export const CALLER_WORD_MS = 300;
