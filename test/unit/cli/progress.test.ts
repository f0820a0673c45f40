import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Io } from '../../../src/cli/io.js';
import { useColor } from '../../../src/cli/io.js';
import { Progress, showsProgress } from '../../../src/cli/progress.js';

function fakeIo(): { io: Io; err: () => string } {
  let err = '';
  const io: Io = {
    stdout: () => undefined,
    stderr: (t) => {
      err += t;
    },
    isTTY: true,
    stderrTTY: true,
    canPrompt: false,
    prompt: async () => '',
    env: {},
    cwd: '/',
  };
  return { io, err: () => err };
}

describe('Progress', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stays silent for work under a second', () => {
    const { io, err } = fakeIo();
    const p = new Progress(io, true);
    p.start('Reading live state');
    vi.advanceTimersByTime(900);
    p.stop();
    expect(err()).toBe('');
  });

  it('shows a line after a second, counts requests, and clears it when done', () => {
    const { io, err } = fakeIo();
    const p = new Progress(io, true);
    p.start('Reading live state');
    p.tick();
    p.tick();
    vi.advanceTimersByTime(1000);
    expect(err()).toContain('Reading live state… 2 requests');
    p.update('3/10 changes');
    vi.advanceTimersByTime(250);
    expect(err()).toContain('3/10 changes');
    p.stop();
    expect(err().endsWith('\r\x1b[K')).toBe(true);
  });

  it('never writes when not on a terminal', () => {
    const { io, err } = fakeIo();
    const p = new Progress(io, false);
    p.start('Applying');
    vi.advanceTimersByTime(5000);
    p.stop();
    expect(err()).toBe('');
  });
});

describe('a dumb terminal (TERM=dumb)', () => {
  it('gets no progress line and no colour, though it is a terminal; FORCE_COLOR still colours (probe TD-1)', () => {
    const { io } = fakeIo();
    expect([showsProgress(io, false), useColor(io, {}), useColor(io, {}, 'stderr')]).toEqual([true, true, true]);
    const dumb: Io = { ...io, env: { TERM: 'dumb' } };
    expect([showsProgress(dumb, false), useColor(dumb, {}), useColor(dumb, {}, 'stderr')]).toEqual([false, false, false]);
    expect(useColor({ ...dumb, env: { TERM: 'dumb', FORCE_COLOR: '1' } }, {})).toBe(true);
    expect(showsProgress(io, true)).toBe(false);
  });
});
