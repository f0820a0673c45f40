/** The commands hints give to copy: read back by a shell as the run was given them. */
import { describe, expect, it } from 'vitest';
import { asRunBy, savedPlanCommand, shapedCommand } from '../../../src/cli/command-line.js';

describe('shapedCommand', () => {
  it('writes out what prints as nothing in a target, as bash and zsh read it back: copied from the screen it would be lost (probe OM-2)', () => {
    expect(shapedCommand('plan', { dir: 'repo', env: 'east', target: ['playbook/NDA\u200b', 'playbook/MSA\u00a0v2', 'playbook/Plain'] })).toBe(
      "docket plan -C repo --env east --target $'playbook/NDA\\xe2\\x80\\x8b' --target $'playbook/MSA\\xc2\\xa0v2' --target playbook/Plain",
    );
    expect(savedPlanCommand({ dir: '.', target: ['rule/NDA/Term 1'], force: true })).toBe("docket plan --target 'rule/NDA/Term 1' --out PLAN.json && docket apply --force PLAN.json");
    // So is the folder, as every word of the line (second read SR80B-5).
    expect(savedPlanCommand({ dir: 'cfg\u200b', target: [] })).toBe("docket plan -C $'cfg\\xe2\\x80\\x8b' --out PLAN.json && docket apply -C $'cfg\\xe2\\x80\\x8b' PLAN.json");
  });
});

describe('asRunBy', () => {
  it('gives a bare plan, apply or pull the run\'s folder, environment and emulator, and leaves one already given them as it is (probe EC-3)', () => {
    const asRun = asRunBy({ dir: 'legal', env: 'prod', emulator: true, prune: true, target: [] });
    expect(asRun('`docket pull` leaves it; `docket apply --prune` archives it; `docket plan` shows it')).toBe(
      '`docket pull -C legal --env prod --emulator` leaves it; `docket apply -C legal --env prod --emulator --prune` archives it; `docket plan -C legal --env prod --emulator --prune` shows it',
    );
    // Pull takes no --prune, a switch named is not given twice; a command already shaped, or a word that only starts alike, is left.
    expect(asRun('`docket apply -C legal --env prod --adopt-files` or `docket apply --env prod` or `docket planner`')).toBe('`docket apply -C legal --env prod --adopt-files` or `docket apply --env prod` or `docket planner`');
    expect(asRunBy({ dir: '.', target: [] })('run `docket pull` now')).toBe('run `docket pull` now');
  });
});
