/** A member as export writes it: what validate would refuse of it is left out, said. */
import { describe, expect, it } from 'vitest';
import type { LiveResource } from '../../../src/engine/types.js';
import type { ConfigContext } from '../../../src/kinds/kind.js';
import { memberKind } from '../../../src/kinds/member.js';
import { projectConfig } from '../engine/builders.js';

const ctx: ConfigContext = { slug: 'members', dir: '.', project: projectConfig(), live: () => [], lock: { files: {} }, schema: () => ({}) };

const member = (name: unknown): LiveResource => ({ kind: 'member', id: 'u-1', key: 'ws@acme.example', name: 'ws@acme.example', fields: { email: 'ws@acme.example' }, refs: [], extra: { name } });

describe('a member written for export', () => {
  it('leaves out a name validate would refuse, blank, too long or not one line, and says so (probe PT-2, second read SR82-2)', () => {
    // As validate says each: a blank or too long name, a control character, a line break, half of a UTF-16 pair (second read SR82B-1).
    for (const [refused, why] of [['   ', 'is blank'], ['\u200b', 'is blank'], ['L'.repeat(201), 'characters long'], ['Bad\u0001Name', 'control character U+0001'], ['Two\nLines', '`name`'], ['Bad\ud800Name', 'U+D800']]) {
      const written = memberKind.toConfig!(member(refused), ctx);
      expect(written.document).toEqual({ kind: 'Member', email: 'ws@acme.example' });
      expect(written.notes?.[0]).toMatch(/^member "ws@acme\.example": its name is not written \(/);
      expect(written.notes?.[0]).toContain(why);
    }
    expect(memberKind.toConfig!(member('Wes Smith'), ctx)).toEqual({ document: { kind: 'Member', email: 'ws@acme.example', name: 'Wes Smith' } });
  });

  it('leaves out a member whose e-mail validate refuses (letters past ASCII before the @), saying so: written, it failed the whole export\'s plan (probe RU-1)', () => {
    const zoe: LiveResource = { ...member('Zoë'), key: 'zoë.ünï@acme.example', name: 'zoë.ünï@acme.example', fields: { email: 'zoë.ünï@acme.example' } };
    const written = memberKind.toConfig!(zoe, ctx);
    expect(written.empty).toBe(true);
    expect(written.notes).toEqual([expect.stringMatching(/^member "zoë\.ünï@acme\.example": not written, as docket's files cannot name an address with letters past ASCII before the `@`/)]);
    // A domain past ASCII is read in its IDNA form, which the files can hold.
    expect(memberKind.toConfig!({ ...member('B'), key: 'b@xn--bcher-kva.example' }, ctx).document).toEqual({ kind: 'Member', email: 'b@xn--bcher-kva.example', name: 'B' });
  });
});
