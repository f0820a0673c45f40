import { describe, expect, it } from 'vitest';
import { seconds } from '../../../src/util/seconds.js';

describe('seconds', () => {
  it('says durations as people read them', () => {
    expect([seconds(400), seconds(1_500), seconds(20_400), seconds(3 * 86_400_000), seconds(1e20)]).toEqual(['400 ms', '1.5 s', '20 s', '3 days', 'more than a year']);
  });

  it('rounds a wait up and what is left down, so one said past the other reads so (probe CC-3)', () => {
    expect([seconds(20_400, Math.ceil), seconds(19_600, Math.floor)]).toEqual(['21 s', '19 s']);
    expect([seconds(1_520, Math.ceil), seconds(1_480, Math.floor)]).toEqual(['1.6 s', '1.4 s']);
  });
});
