import { AmdAnalysis, type AmdVerdict, amdSettings } from '../amd/AmdAnalysis.ts';
import { type DialplanApplication, HUNGUP, NEXT } from './DialplanApplication.ts';

/** The length of one audio frame the detector reads (a 20 ms packetisation, the usual one). */
const FRAME_MS = 20;

/**
 * AMD([initialSilence[,greeting[,afterGreetingSilence[,totalAnalysisTime[,minimumWordLength
 * [,betweenWordsSilence[,maximumNumberOfWords[,silenceThreshold[,maximumWordLength]]]]]]]]]):
 * listens to what comes from the channel (its far end talking: the driver, or a far end's
 * `machine`/`human` behaviour) frame by frame on the core's clock, decides as the real server's
 * detector does, and sets AMDSTATUS (MACHINE, HUMAN, NOTSURE, HANGUP) and AMDCAUSE
 * (`LONGGREETING-1500-1500`, `HUMAN-800-800`, `TOOLONG-5000`, ...).
 */
export const AMD: DialplanApplication = {
  name: 'AMD',
  async run({ host, data, warn, tookTime }) {
    const analysis = new AmdAnalysis(amdSettings(data, warn));
    let verdict: AmdVerdict | undefined;
    while (verdict === undefined) {
      if ((await host.wait(FRAME_MS)) === 'hungup') {
        verdict = { status: 'HANGUP', cause: '' };
        break;
      }
      verdict = analysis.frame(host.hearsVoice(), FRAME_MS);
    }
    tookTime();
    host.setVariable('AMDSTATUS', verdict.status);
    host.setVariable('AMDCAUSE', verdict.cause);
    return verdict.status === 'HANGUP' ? HUNGUP : NEXT;
  },
};
