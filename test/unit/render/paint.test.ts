import kleur from 'kleur';
import { afterEach, describe, expect, it } from 'vitest';
import { painter } from '../../../src/render/paint.js';

describe('painter', () => {
  const saved = kleur.enabled;
  afterEach(() => {
    kleur.enabled = saved;
  });

  it('colours when asked even if kleur guessed no colour, and restores its flag', () => {
    kleur.enabled = false;
    expect(painter(true)('red', 'x')).toBe('\x1b[31mx\x1b[39m');
    expect(kleur.enabled).toBe(false);
  });

  it('never colours when not asked, even if kleur guessed colour', () => {
    kleur.enabled = true;
    expect(painter(false)('red', 'x')).toBe('x');
    expect(kleur.enabled).toBe(true);
  });
});
