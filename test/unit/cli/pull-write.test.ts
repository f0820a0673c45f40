import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writePulled } from '../../../src/cli/pull-write.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterAll(removeMadeDirs);

describe('writePulled', () => {
  it('writes nothing, not even a new file or the records, when a file is no longer the text pull read', async () => {
    const dir = await makeDir({ 'a.yaml': 'saved since\n', 'b.yaml': 'as read\n' });
    let recorded = false;
    const changes = [
      { path: 'b.yaml', before: 'as read\n', after: 'pulled\n' },
      { path: 'a.yaml', before: 'as read\n', after: 'pulled\n' },
      { path: 'c.yaml', before: null, after: 'new\n' },
    ];
    await expect(writePulled(dir, changes, { file: join(dir, 'docket.lock.json'), write: async () => void (recorded = true) })).rejects.toMatchObject({ code: 'pull-files-changed', message: 'a.yaml changed while pull ran: nothing was written' });
    expect([readFileSync(join(dir, 'a.yaml'), 'utf8'), readFileSync(join(dir, 'b.yaml'), 'utf8'), existsSync(join(dir, 'c.yaml')), recorded]).toEqual(['saved since\n', 'as read\n', false, false]);
  });
});
