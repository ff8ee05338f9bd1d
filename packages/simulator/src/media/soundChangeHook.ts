import type { SimChannel } from '../world/SimChannel.ts';
import type { World } from '../world/World.ts';

/**
 * Lets media sockets learn that sound may have started or stopped reaching some channels (the
 * world's audio review calls {@link soundMayHaveChanged}), without the world knowing about them.
 */
const hooks = new WeakMap<World, (channels: ReadonlySet<SimChannel>) => void>();

export function onSoundChange(world: World, hook: (channels: ReadonlySet<SimChannel>) => void): void {
  hooks.set(world, hook);
}

export function soundMayHaveChanged(world: World, channels: ReadonlySet<SimChannel>): void {
  hooks.get(world)?.(channels);
}
