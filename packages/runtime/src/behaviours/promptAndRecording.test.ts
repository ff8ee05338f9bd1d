import { HttpError } from '@ringflow/client';
import { describe, expect, it } from 'vitest';
import { playbackEnd, stopPrompt } from './prompt.ts';
import { recordingEnd } from './recording.ts';

describe('prompt rules (play actor and flow prompts)', () => {
  const finished = (id: string, state: string) => ({ type: 'PlaybackFinished', playback: { id, state } });

  it("reads a playback's end from its own PlaybackFinished: failed for media the server could not play", () => {
    expect(playbackEnd(finished('pb-1', 'done'), 'pb-1')).toBe('finished');
    // As recorded on a real server for sound:no-such-file.
    expect(playbackEnd(finished('pb-1', 'failed'), 'pb-1')).toBe('failed');
    expect(playbackEnd(finished('pb-2', 'done'), 'pb-1')).toBeUndefined();
    expect(
      playbackEnd({ type: 'PlaybackStarted', playback: { id: 'pb-1', state: 'playing' } }, 'pb-1'),
    ).toBeUndefined();
  });

  it('a barge-in stop that finds the prompt already ended (404) is the same outcome; other refusals are thrown', async () => {
    expect(await stopPrompt(async () => undefined)).toBe('stopped');
    const reply = (status: number, serverMessage: string) =>
      new HttpError({
        status,
        operation: 'playbacks.stop',
        method: 'DELETE',
        path: '/playbacks/pb-1',
        serverMessage,
        resourceGone: true,
      });
    expect(await stopPrompt(() => Promise.reject(reply(404, 'Playback not found')))).toBe('ended');
    const refused = reply(500, 'Internal Server Error');
    await expect(stopPrompt(() => Promise.reject(refused))).rejects.toBe(refused);
  });
});

describe('recording rules (record actor and record step)', () => {
  it("reads a recording's end from its own RecordingFinished or RecordingFailed", () => {
    expect(recordingEnd({ type: 'RecordingFinished', recording: { name: 'vm-1' } }, 'vm-1')).toBe('finished');
    expect(recordingEnd({ type: 'RecordingFailed', recording: { name: 'vm-1' } }, 'vm-1')).toBe('failed');
    expect(recordingEnd({ type: 'RecordingFinished', recording: { name: 'vm-2' } }, 'vm-1')).toBeUndefined();
    expect(recordingEnd({ type: 'RecordingStarted', recording: { name: 'vm-1' } }, 'vm-1')).toBeUndefined();
  });
});
