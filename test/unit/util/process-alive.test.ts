import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processAlive } from '../../../src/util/process-alive.js';

describe('processAlive', () => {
  it('is true for a running process and false for a pid no process has', async () => {
    expect(processAlive(process.pid)).toBe(true);
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10_000)'], { stdio: 'ignore' });
    await once(child, 'spawn');
    expect(processAlive(child.pid!)).toBe(true);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(processAlive(child.pid!)).toBe(false);
  });

  // A docket killed with SIGKILL whose parent does not reap it (a killed `timeout`, a container
  // without an init) is a zombie: signal 0 still reaches it, but it holds no apply lock.
  it.runIf(process.platform === 'linux')('is false for a zombie, which still answers signal 0', async () => {
    // The shell starts a short sleep and becomes a long one, which never reaps it: the short one
    // outlives the exec, so the shell cannot reap it first.
    const parent = spawn('sh', ['-c', 'sleep 0.5 & echo $!; exec sleep 10'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const [line] = (await once(parent.stdout!, 'data')) as [Buffer];
      const pid = Number(line.toString().trim());
      const state = (): string => {
        const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
        return stat.charAt(stat.lastIndexOf(')') + 2);
      };
      for (let i = 0; i < 500 && state() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(state()).toBe('Z');
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(processAlive(pid)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
