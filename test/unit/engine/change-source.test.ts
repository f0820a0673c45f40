import { describe, expect, it } from 'vitest';
import { withCurrentSources } from '../../../src/engine/change-source.js';
import { KINDS } from '../../../src/kinds/index.js';
import { change, desiredPlaybook, desiredRule, pos } from './builders.js';

const parentField = (kind: string) => KINDS.find((k) => k.name === kind)?.parentField;

describe('a saved plan named where the files declare it now (probe YC-1)', () => {
  it('places creates at their resource, updates at their first field, a removed child at its parent\'s list, and keeps what the files no longer place', () => {
    const moved = pos(4, 1, 'playbooks/moved.yaml');
    const playbook = desiredPlaybook('P', { source: moved, fieldSources: { rules: pos(7, 1, 'playbooks/moved.yaml') } });
    const rule = desiredRule('P', 'T', { actions: 'A' }, { source: pos(8, 5, 'playbooks/moved.yaml'), fieldSources: { actions: pos(9, 14, 'playbooks/moved.yaml') } });
    const before = pos(1);
    const changes = [
      change('create', 'playbook', 'P', { source: before }),
      change('update', 'rule', 'P/T', { source: before, fields: [{ field: 'actions', before: 'B', after: 'A' }] }),
      change('delete', 'rule', 'P/Gone', { source: before, parent: { kind: 'playbook', key: 'P', liveId: 'p' }, liveId: 'g' }),
      change('update', 'rule', 'Q/X', { source: before, fields: [{ field: 'actions', before: 'B', after: 'A' }] }),
      change('archive', 'playbook', 'Old', { liveId: 'o' }),
    ];
    expect(withCurrentSources(changes, [playbook, rule], parentField).map((c) => c.source)).toEqual([moved, pos(9, 14, 'playbooks/moved.yaml'), pos(7, 1, 'playbooks/moved.yaml'), before, undefined]);
  });

  it('places an upload that replaces a live attachment at its first changed field, as the plan did (second read SR97-1)', () => {
    const file = pos(3, 7, 'attachments/sec.yaml');
    const attachment = { ...desiredPlaybook('Sec'), kind: 'attachment' as const, source: pos(1, 1, 'attachments/sec.yaml'), fieldSources: { sha256: file } };
    const upload = { ...change('upload', 'attachment', 'Sec', { source: file, fields: [{ field: 'sha256', before: 'a', after: 'b' }] }), liveId: 'att-1' };
    expect(withCurrentSources([upload], [attachment], parentField)[0]!.source).toEqual(file);
  });
});
