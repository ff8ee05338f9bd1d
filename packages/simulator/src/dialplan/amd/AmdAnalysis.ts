/**
 * The settings of answering-machine detection, in milliseconds (words: a count), with the real
 * server's built-in defaults (app_amd without an amd.conf; the sample amd.conf sets
 * maximumNumberOfWords to 2).
 */
export interface AmdSettings {
  readonly initialSilence: number;
  readonly greeting: number;
  readonly afterGreetingSilence: number;
  readonly totalAnalysisTime: number;
  readonly minimumWordLength: number;
  readonly betweenWordsSilence: number;
  readonly maximumNumberOfWords: number;
  readonly silenceThreshold: number;
  readonly maximumWordLength: number;
}

export const AMD_DEFAULTS: AmdSettings = {
  initialSilence: 2500,
  greeting: 1500,
  afterGreetingSilence: 800,
  totalAnalysisTime: 5000,
  minimumWordLength: 100,
  betweenWordsSilence: 50,
  maximumNumberOfWords: 3,
  silenceThreshold: 256,
  maximumWordLength: 5000,
};

/** The order of AMD()'s arguments. */
const ARGUMENT_ORDER: readonly (keyof AmdSettings)[] = [
  'initialSilence',
  'greeting',
  'afterGreetingSilence',
  'totalAnalysisTime',
  'minimumWordLength',
  'betweenWordsSilence',
  'maximumNumberOfWords',
  'silenceThreshold',
  'maximumWordLength',
];

/**
 * AMD()'s argument text over the defaults: positional, an empty one keeps its default; a value
 * that is not a whole number is reported through `warn` and ignored (the real server's atoi would
 * read it as 0).
 *
 * @example amdSettings('2000,,1000', warn).afterGreetingSilence // 1000
 */
export function amdSettings(data: string, warn: (message: string) => void): AmdSettings {
  const settings: { -readonly [K in keyof AmdSettings]: number } = { ...AMD_DEFAULTS };
  const parts = data.trim() === '' ? [] : data.split(',');
  parts.forEach((raw, i) => {
    const name = ARGUMENT_ORDER[i];
    const text = raw.trim();
    if (name === undefined || text === '') return;
    if (!/^\d+$/.test(text)) {
      warn(
        `AMD(${data}): ${name} must be a whole number of milliseconds, got '${text}'; keeping ${settings[name]}`,
      );
      return;
    }
    settings[name] = Number(text);
  });
  return settings;
}

/** What AMD() concludes: AMDSTATUS and AMDCAUSE. */
export interface AmdVerdict {
  readonly status: 'MACHINE' | 'HUMAN' | 'NOTSURE' | 'HANGUP';
  readonly cause: string;
}

/**
 * The detector of the real server's AMD(), fed one frame at a time: voice or silence, `ms`
 * long. It keeps the same counters and takes its decisions in the same order (total time, then
 * the silence rules, then the voice rules); `frame` returns the verdict once there is one.
 * Quirk kept: it starts "in a word", so the first word is counted only after a silence.
 */
export class AmdAnalysis {
  private inInitialSilence = true;
  private inGreeting = false;
  private voiceDuration = 0;
  private silenceDuration = 0;
  private totalTime = 0;
  private words = 0;
  private inWord = true;
  private consecutiveVoice = 0;
  private silenceSoFar = 0;

  constructor(private readonly settings: AmdSettings) {}

  /** Feeds one frame; the verdict once the detector has decided. */
  frame(voice: boolean, ms: number): AmdVerdict | undefined {
    const s = this.settings;
    this.totalTime += ms;
    if (this.totalTime >= s.totalAnalysisTime)
      return { status: 'NOTSURE', cause: `TOOLONG-${this.totalTime}` };
    this.silenceSoFar = voice ? 0 : this.silenceSoFar + ms;
    if (this.silenceSoFar > 0) {
      this.silenceDuration = this.silenceSoFar;
      if (this.silenceDuration >= s.betweenWordsSilence) {
        this.inWord = false;
        this.consecutiveVoice = 0;
      }
      if (this.inInitialSilence && this.silenceDuration >= s.initialSilence)
        return { status: 'MACHINE', cause: `INITIALSILENCE-${this.silenceDuration}-${s.initialSilence}` };
      if (this.inGreeting && this.silenceDuration >= s.afterGreetingSilence)
        return { status: 'HUMAN', cause: `HUMAN-${this.silenceDuration}-${s.afterGreetingSilence}` };
      return undefined;
    }
    this.consecutiveVoice += ms;
    this.voiceDuration += ms;
    if (this.consecutiveVoice >= s.minimumWordLength && !this.inWord) {
      this.words++;
      this.inWord = true;
    }
    if (this.consecutiveVoice >= s.maximumWordLength)
      return { status: 'MACHINE', cause: `MAXWORDLENGTH-${this.consecutiveVoice}` };
    if (this.words >= s.maximumNumberOfWords)
      return { status: 'MACHINE', cause: `MAXWORDS-${this.words}-${s.maximumNumberOfWords}` };
    if (this.inGreeting && this.voiceDuration >= s.greeting)
      return { status: 'MACHINE', cause: `LONGGREETING-${this.voiceDuration}-${s.greeting}` };
    if (this.voiceDuration >= s.minimumWordLength) this.silenceDuration = 0;
    if (this.consecutiveVoice >= s.minimumWordLength && !this.inGreeting) {
      this.inInitialSilence = false;
      this.inGreeting = true;
    }
    return undefined;
  }
}
