import { describe, expect, it } from 'vitest';
import { hoistCommonFlags } from '../../../src/cli/main.js';

const COMMANDS = ['validate', 'plan', 'apply', 'export', 'init', 'emulator'];

describe('hoistCommonFlags', () => {
  it('moves common flags written before the command after it', () => {
    expect(hoistCommonFlags(['node', 'docket', '--no-color', '-C', 'cfg', 'plan', '-o', 'json'], COMMANDS)).toEqual([
      'node',
      'docket',
      'plan',
      '--no-color',
      '-C',
      'cfg',
      '-o',
      'json',
    ]);
    expect(hoistCommonFlags(['node', 'docket', '--concurrency=4', '-q', 'apply'], COMMANDS)).toEqual(['node', 'docket', 'apply', '--concurrency=4', '-q']);
  });

  it('moves short common flags run together as after the command: -qv, -Ccfg, -qC cfg (probe XE-2)', () => {
    expect(hoistCommonFlags(['node', 'docket', '-qv', '-Ccfg', 'plan'], COMMANDS)).toEqual(['node', 'docket', 'plan', '-qv', '-Ccfg']);
    expect(hoistCommonFlags(['node', 'docket', '-qC', 'cfg', 'plan', '-o', 'json'], COMMANDS)).toEqual(['node', 'docket', 'plan', '-qC', 'cfg', '-o', 'json']);
    // A run holding another letter is left for commander to name.
    expect(hoistCommonFlags(['node', 'docket', '-qx', 'plan'], COMMANDS)).toEqual(['node', 'docket', '-qx', 'plan']);
  });

  it('says a command taken as the value of a common flag before it, with no command after, as the flag\'s missing value (probe FH-1)', () => {
    expect(() => hoistCommonFlags(['node', 'docket', '--concurrency', 'apply', '-C', 'small', '--auto-approve'], COMMANDS)).toThrow('--concurrency needs a value, and got the command "apply" (is the variable that gives it unset?)');
    expect(() => hoistCommonFlags(['node', 'docket', '-qC', 'plan', '-o', 'json'], COMMANDS)).toThrow('-qC needs a value, and got the command "plan"');
    // A value that is a command's name is one while a command follows.
    expect(hoistCommonFlags(['node', 'docket', '--env', 'validate', 'plan'], COMMANDS)).toEqual(['node', 'docket', 'plan', '--env', 'validate']);
  });

  it('leaves everything else alone', () => {
    const argv = ['node', 'docket', 'plan', '--no-color'];
    expect(hoistCommonFlags(argv, COMMANDS)).toBe(argv);
    expect(hoistCommonFlags(['node', 'docket', '--version'], COMMANDS)).toEqual(['node', 'docket', '--version']);
    expect(hoistCommonFlags(['node', 'docket', '--bogus', 'plan'], COMMANDS)).toEqual(['node', 'docket', '--bogus', 'plan']);
  });

  it('still moves them when something else comes before the command, which is left for commander to name', () => {
    expect(hoistCommonFlags(['node', 'docket', '--no-color', '--bogus', 'plan', '-C', 'g'], COMMANDS)).toEqual(['node', 'docket', '--bogus', 'plan', '--no-color', '-C', 'g']);
    expect(hoistCommonFlags(['node', 'docket', '--no-color', '-o', 'json', 'plan'], COMMANDS)).toEqual(['node', 'docket', '-o', 'json', 'plan', '--no-color']);
    // No command at all: left out, so what is wrong is named (or the usage shown).
    expect(hoistCommonFlags(['node', 'docket', '--no-color', '--bogus'], COMMANDS)).toEqual(['node', 'docket', '--bogus']);
    expect(hoistCommonFlags(['node', 'docket', '-q'], COMMANDS)).toEqual(['node', 'docket']);
  });
});
