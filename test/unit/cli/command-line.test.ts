/** The commands hints give to copy: read back by a shell as the run was given them. */
import { describe, expect, it } from 'vitest';
import { savedPlanCommand, shapedCommand } from '../../../src/cli/command-line.js';

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
