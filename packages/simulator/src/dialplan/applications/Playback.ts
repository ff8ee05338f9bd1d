import { splitArguments } from '@ringflow/client';
import { type DialplanApplication, HUNGUP, NEXT } from './DialplanApplication.ts';

/**
 * Playback(file[&file2...][,options]): plays sound files in order and sets PLAYBACKSTATUS to
 * SUCCESS or FAILED (a missing file fails the rest and the dialplan goes on).
 * Options: `skip` (do nothing unless the channel is answered), `noanswer` (play without
 * answering); otherwise an unanswered channel is answered first.
 */
export const Playback: DialplanApplication = {
  name: 'Playback',
  async run({ host, data, warn, tookTime }) {
    const [fileList = '', optionText = ''] = splitArguments(data, ',', 2);
    const files = fileList
      .split('&')
      .map((f) => f.trim())
      .filter(Boolean);
    if (files.length === 0) {
      warn('Playback requires an argument (filename)');
      return { kind: 'failed', message: 'Playback without a file name' };
    }
    const options = optionText
      .split(/[&,]/)
      .map((o) => o.trim().toLowerCase())
      .filter(Boolean);
    if (!host.isAnswered()) {
      if (options.includes('skip')) {
        host.setVariable('PLAYBACKSTATUS', 'SUCCESS');
        return NEXT;
      }
      if (!options.includes('noanswer')) {
        await host.answer();
        if (host.isHungUp()) return HUNGUP;
      }
    }
    const outcome = await host.play(files);
    if (outcome === 'hungup') return HUNGUP;
    if (outcome === 'finished') tookTime();
    host.setVariable('PLAYBACKSTATUS', outcome === 'finished' ? 'SUCCESS' : 'FAILED');
    return NEXT;
  },
};
