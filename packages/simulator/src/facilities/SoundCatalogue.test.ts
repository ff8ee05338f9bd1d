import { describe, expect, it } from 'vitest';
import { expectSimError } from './expectSimError.ts';
import { SoundCatalogue } from './SoundCatalogue.ts';

describe('SoundCatalogue', () => {
  const sounds = new SoundCatalogue();

  it('serves a sound as traced', () => {
    expect(sounds.get('hello-world')).toEqual({
      id: 'hello-world',
      formats: [
        { language: 'en_US_f_Allison', format: 'slin' },
        { language: 'en_US', format: 'slin' },
        { language: 'en', format: 'slin' },
      ],
    });
    expectSimError(() => sounds.get('no-such-sound'), 404, 'Sound not found');
  });

  it('ships the sounds demos and flows use', () => {
    const ids = new Set(sounds.list().map((s) => s.id));
    expect(ids.size).toBeGreaterThan(200);
    for (const id of [
      'hello-world',
      'beep',
      'demo-congrats',
      'vm-intro',
      'vm-goodbye',
      'digits/0',
      'digits/9',
      'letters/a',
      'letters/z',
      'queue-thankyou',
      'conf-onlyperson',
      'tt-monkeys',
      'silence/1',
      'silence/10',
      'conf-now-unmuted',
      'queue-minutes',
      'phonetic/y_p',
    ]) {
      expect(ids.has(id), id).toBe(true);
    }
  });

  it('filters by language and format, narrowing each format list (traced)', () => {
    const english = sounds.list({ lang: 'en', format: 'slin' });
    expect(english.find((s) => s.id === 'conf-now-unmuted')).toEqual({
      id: 'conf-now-unmuted',
      formats: [{ language: 'en', format: 'slin' }],
    });
    expect(sounds.list({ lang: 'en_US' }).every((s) => s.formats.every((f) => f.language === 'en_US'))).toBe(
      true,
    );
    expectSimError(
      () => sounds.list({ lang: 'en', format: 'wav' }),
      404,
      'No sounds found that matched the query',
    );
    expectSimError(() => sounds.list({ lang: 'fr' }), 404, 'No sounds found that matched the query');
  });

  it('accepts extra sounds with their own formats and text', () => {
    const custom = new SoundCatalogue({
      extraSounds: [
        {
          id: 'custom/bonjour',
          durationMs: 900,
          text: 'Bonjour',
          formats: [{ language: 'fr', format: 'wav' }],
        },
        { id: 'beep', durationMs: 300 },
      ],
    });
    expect(custom.list({ lang: 'fr' })).toEqual([
      { id: 'custom/bonjour', text: 'Bonjour', formats: [{ language: 'fr', format: 'wav' }] },
    ]);
    expect(custom.durationOf('custom/bonjour', 'fr')).toBe(900);
    expect(custom.durationOf('custom/bonjour', 'en')).toBeUndefined();
    expect(custom.durationOf('beep')).toBe(300);
    expect(() => new SoundCatalogue({ extraSounds: [{ id: 'x', durationMs: -1 }] })).toThrow(/durationMs/);
  });

  it('times sounds with the traced lengths and falls back to English', () => {
    expect(sounds.durationOf('beep')).toBe(424);
    expect(sounds.durationOf('hello-world')).toBe(1400);
    expect(sounds.durationOf('silence/3')).toBe(3000);
    expect(sounds.durationOf('hello-world', 'en_GB')).toBe(1400);
    expect(sounds.durationOf('hello-world', 'fr')).toBe(1400);
    expect(sounds.durationOf('no-such-file')).toBeUndefined();
    const frenchOnly = new SoundCatalogue({
      languages: ['fr'],
      sounds: [{ id: 'bonjour', durationMs: 800 }],
    });
    expect(frenchOnly.durationOf('bonjour', 'de')).toBeUndefined();
  });

  it('times every kind of media URI', () => {
    const withRecordings = new SoundCatalogue({
      recordings: { durationOf: (name) => (name === 't1' ? 2880 : undefined) },
    });
    expect(withRecordings.mediaTiming('sound:hello-world')).toEqual({ kind: 'timed', durationMs: 1400 });
    expect(withRecordings.mediaTiming('digits:12')).toEqual({ kind: 'timed', durationMs: 1655 });
    expect(withRecordings.mediaTiming('number:42')).toEqual({ kind: 'timed', durationMs: 1693 });
    expect(withRecordings.mediaTiming('number:42abc')).toEqual({ kind: 'timed', durationMs: 1693 });
    expect(withRecordings.mediaTiming('characters:ab')).toEqual({ kind: 'timed', durationMs: 1120 });
    expect(withRecordings.mediaTiming('recording:t1')).toEqual({ kind: 'timed', durationMs: 2880 });
    expect(withRecordings.mediaTiming('recording:nope')).toEqual({ kind: 'missing' });
    expect(withRecordings.mediaTiming('sound:no-such-file')).toEqual({ kind: 'missing' });
    expect(withRecordings.mediaTiming('number:abc')).toEqual({ kind: 'missing' });
    expect(withRecordings.mediaTiming('tone:ring;tonezone=us')).toEqual({ kind: 'endless' });
    expect(withRecordings.mediaTiming('bogus:thing')).toEqual({ kind: 'unknownScheme' });
    expect(withRecordings.mediaTiming('no-scheme')).toEqual({ kind: 'unknownScheme' });
    expect(sounds.mediaTiming('recording:t1')).toEqual({ kind: 'missing' });
  });
});
