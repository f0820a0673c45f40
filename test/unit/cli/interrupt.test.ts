/** The process's interrupt signal: every wait of a run listens to it at once. */
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, expect, it, vi } from 'vitest';
import { processInterrupts } from '../../../src/cli/interrupt.js';

const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };

afterEach(() => {
  // Only the handlers this test added go; the runner's own stay.
  for (const name of ['SIGINT', 'SIGTERM'] as const) for (const l of process.listeners(name)) if (!before[name].includes(l)) process.removeListener(name, l);
});

it('takes many listeners without Node warning of a leak (a test run polls dozens of reviews at once)', async () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => void warnings.push(w);
  process.on('warning', onWarning);
  try {
    const { signal } = processInterrupts();
    await Promise.all(Array.from({ length: 25 }, () => delay(5, undefined, { signal })));
    // Warnings are emitted on the next tick.
    await delay(10);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  } finally {
    process.removeListener('warning', onWarning);
  }
});

it('runs the exit handlers asked to go last after every other one (the apply lock after the writes it guards)', () => {
  // Ends the handler as the real exit would.
  const exit = vi.spyOn(process, 'exit').mockImplementation(((code: number) => {
    throw new Error(`exit ${code}`);
  }) as never);
  const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const interrupts = processInterrupts();
    const ran: string[] = [];
    interrupts.onExit(() => ran.push('release the lock'), true);
    interrupts.onExit(() => ran.push('save the emulator'));
    interrupts.onExit(() => ran.push('write the lock file'));
    expect(() => process.emit('SIGINT')).toThrow('exit 130');
    expect(ran).toEqual(['save the emulator', 'write the lock file', 'release the lock']);
  } finally {
    exit.mockRestore();
    write.mockRestore();
  }
});
