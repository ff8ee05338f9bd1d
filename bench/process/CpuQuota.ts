import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The scheduler period the quotas are written against (the kernel's default, 100 ms). */
const PERIOD_US = 100_000;
const V1_ROOT = '/sys/fs/cgroup/cpu';
const V2_ROOT = '/sys/fs/cgroup';

/**
 * A share of one CPU core for a process, enforced by the kernel's CFS bandwidth control in a
 * control group of its own (cgroup v1 `cpu` controller or cgroup v2 `cpu.max`): a process given
 * 0.25 runs at most 25 ms of every 100 ms, as if it had a quarter of a core to itself. The bench
 * uses it to show scale-out on a machine with fewer cores than workers: N capped processes are
 * N small machines. Needs root (or a delegated cgroup); {@link CpuQuota.create} says why it can't.
 *
 * @example
 * const quota = CpuQuota.create('ringflow-bench-1', 0.25);
 * spawn('sh', ['-c', `${quota.enterCommand()} && exec node app.js`]);
 * // ... later
 * quota.remove();
 */
export class CpuQuota {
  private constructor(
    /** The group's directory. */
    readonly dir: string,
    /** The file a pid is written to, to move that process into the group. */
    private readonly procsFile: string,
  ) {}

  /** Makes a control group named `name` limited to `cores` (> 0) of CPU time. */
  static create(name: string, cores: number): CpuQuota {
    if (!(cores > 0)) throw new Error(`a CPU quota must be a share of a core above 0, not ${cores}`);
    const quotaUs = Math.round(cores * PERIOD_US);
    try {
      if (existsSync(join(V1_ROOT, 'cpu.cfs_quota_us'))) {
        const dir = join(V1_ROOT, name);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
        writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quotaUs));
        return new CpuQuota(dir, join(dir, 'cgroup.procs'));
      }
      const controllers = readFileSync(join(V2_ROOT, 'cgroup.subtree_control'), 'utf8');
      if (!controllers.split(/\s+/).includes('cpu'))
        writeFileSync(join(V2_ROOT, 'cgroup.subtree_control'), '+cpu');
      const dir = join(V2_ROOT, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'cpu.max'), `${quotaUs} ${PERIOD_US}`);
      return new CpuQuota(dir, join(dir, 'cgroup.procs'));
    } catch (error) {
      throw new Error(
        `cannot limit CPU with a control group (needs root and a cgroup cpu controller under ${V1_ROOT} or ${V2_ROOT}): ${(error as Error).message}`,
      );
    }
  }

  /** A shell command that moves the shell running it into the group (then `exec` the process). */
  enterCommand(): string {
    return `echo $$ > '${this.procsFile}'`;
  }

  /**
   * The CPU time the group's processes were throttled (wanted to run, had used their quota), in
   * milliseconds: above zero, the quota was the limit.
   */
  throttledMs(): number {
    const stat = readFileSync(join(this.dir, 'cpu.stat'), 'utf8');
    const v1 = /^throttled_time (\d+)$/m.exec(stat); // nanoseconds
    if (v1) return Number(v1[1]) / 1e6;
    const v2 = /^throttled_usec (\d+)$/m.exec(stat);
    return v2 ? Number(v2[1]) / 1e3 : 0;
  }

  /** Removes the group (its processes must have exited). */
  remove(): void {
    try {
      rmdirSync(this.dir);
    } catch {}
  }
}
