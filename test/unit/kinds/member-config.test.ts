/** A member as export writes it: what validate would refuse of it is left out, said. */
import { describe, expect, it } from 'vitest';
import type { LiveResource } from '../../../src/engine/types.js';
import type { ConfigContext } from '../../../src/kinds/kind.js';
import { memberKind } from '../../../src/kinds/member.js';
import { projectConfig } from '../engine/builders.js';

const ctx: ConfigContext = { slug: 'members', dir: '.', project: projectConfig(), live: () => [], lock: { files: {} }, schema: () => ({}) };

const member = (name: unknown): LiveResource => ({ kind: 'member', id: 'u-1', key: 'ws@acme.example', name: 'ws@acme.example', fields: { email: 'ws@acme.example' }, refs: [], extra: { name } });

describe('a member written for export', () => {
  it('leaves out a name validate would refuse, blank or of what prints as nothing, and says so (probe PT-2)', () => {
    for (const blank of ['   ', '\u200b']) {
      const written = memberKind.toConfig!(member(blank), ctx);
      expect(written.document).toEqual({ kind: 'Member', email: 'ws@acme.example' });
      expect(written.notes?.[0]).toContain('member "ws@acme.example": its name');
      expect(written.notes?.[0]).toContain('is blank');
    }
    expect(memberKind.toConfig!(member('Wes Smith'), ctx)).toEqual({ document: { kind: 'Member', email: 'ws@acme.example', name: 'Wes Smith' } });
  });
});
