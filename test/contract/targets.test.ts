import { describe, expect, it } from 'vitest';
import { realServerTarget } from './targets.ts';

describe('contract targets', () => {
  it('adds a real server only when its url, user and password are all given', () => {
    expect(realServerTarget({})).toBeUndefined();
    expect(
      realServerTarget({ RINGFLOW_ARI_URL: 'http://127.0.0.1:8088/ari', RINGFLOW_ARI_USER: 'demo' }),
    ).toBeUndefined();
    const target = realServerTarget({
      RINGFLOW_ARI_URL: 'http://127.0.0.1:8088/ari',
      RINGFLOW_ARI_USER: 'demo',
      RINGFLOW_ARI_PASSWORD: 'demo',
    });
    expect(target).toMatchObject({ name: 'real-server', simulated: false });
  });
});
