import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseConcurrency, parseMaxRps } from '../../../src/cli/options.js';
import { collect } from '../../../src/cli/flag-values.js';
import { parseDuration, parseTimeBudget } from '../../../src/cli/duration.js';

describe('repeatable flags', () => {
  it('keep each value once, in the order given, however many are given (probe QI-5)', () => {
    let targets: string[] = [];
    for (const t of ['rule/A/x', 'playbook/B', 'rule/A/x', 'playbook/b']) targets = collect(t, targets);
    expect(targets).toEqual(['rule/A/x', 'playbook/B', 'playbook/b']);
    let many: string[] = [];
    for (let i = 0; i < 40_000; i++) many = collect(`rule/P/R ${i % 30_000}`, many);
    expect(many).toHaveLength(30_000);
    // A list begun by another run is its own.
    expect(collect('playbook/B', [])).toEqual(['playbook/B']);
  });
});

describe('number flags', () => {
  it('take numbers written in decimal, as docket.yaml does, and refuse what Number() would also read', () => {
    expect([parseConcurrency('8'), parseConcurrency('16'), parseMaxRps('2.5'), parseMaxRps('.5'), parseMaxRps('20')]).toEqual([8, 16, 2.5, 0.5, 20]);
    for (const odd of ['0x10', '0b11', '0o7', '+8', ' 8', '8 ', '1e1', '', '-1', 'Infinity']) {
      expect(() => parseConcurrency(odd), odd).toThrow(InvalidArgumentError);
    }
    for (const odd of ['0x10', ' 5', '1e1', '+5', '']) expect(() => parseMaxRps(odd), odd).toThrow(InvalidArgumentError);
  });

  it('a time budget that rounds to no milliseconds says it must be at least one, not that it must be longer than 0', () => {
    expect(() => parseTimeBudget('0.0004')).toThrow('a time budget must be at least 1ms (got "0.0004")');
    expect(parseTimeBudget('0.001')).toBe(1);
    // Less than 1ms in any unit, however it would round.
    expect(() => parseTimeBudget('0.5ms')).toThrow('a time budget must be at least 1ms (got "0.5ms")');
    expect(parseTimeBudget('1.4ms')).toBe(1);
    // Spaces around it are refused, as the number flags refuse them.
    expect(() => parseTimeBudget(' 5')).toThrow('" 5" is not a duration');
  });

  it('takes a duration of parts, as Go and Terraform write them (probe LE-4)', () => {
    expect([parseDuration('2m30s'), parseDuration('1h30m'), parseDuration('1m500ms'), parseDuration('90'), parseDuration('1.5m')]).toEqual([150_000, 5_400_000, 60_500, 90_000, 90_000]);
    for (const bad of ['2m30', 'm30s', '2m 30s', '', '-1s']) expect(() => parseDuration(bad), bad).toThrow(InvalidArgumentError);
  });

  it('refuses a duration longer than a year, whose deadline no clock can say, rather than fail the run at its first use (probe HM-1)', () => {
    expect(parseTimeBudget('8760h')).toBe(31_536_000_000);
    expect(parseDuration('525600m')).toBe(31_536_000_000);
    for (const long of ['8761h', '9999999999h', '31536000001ms']) {
      expect(() => parseTimeBudget(long), long).toThrow(`a duration can be at most 8760h, a year (got "${long}")`);
      expect(() => parseDuration(long), long).toThrow(InvalidArgumentError);
    }
  });
});
