import { describe, expect, it } from 'vitest';
import { removeOrFindGone } from '../../../src/kinds/support/gone.js';
import { ApiError } from '../../../src/errors.js';

const notFound = (path: string): ApiError => new ApiError({ service: 'review', status: 404, method: 'DELETE', path, operation: 'delete rule' });
const refuse = (path: string) => async (): Promise<never> => {
  throw notFound(path);
};

describe('removeOrFindGone', () => {
  it('counts a 404 as done when its scope no longer lists the object', async () => {
    expect(await removeOrFindGone(refuse('/r/1'), async () => [{ id: '2' }], (r) => r.id === '1', 'deleted', 'gone with its playbook')).toBe('deleted already (by another apply, or in the app)');
  });

  it('says an object gone with its scope (a rule whose playbook was archived) as that, not as deleted (probe DF-1)', async () => {
    expect(await removeOrFindGone(refuse('/r/1'), refuse('/p/1/rules'), (r: { id: string }) => r.id === '1', 'deleted', 'gone with its playbook')).toBe('gone with its playbook');
    // A kind with nothing to say of its scope says what it always said.
    expect(await removeOrFindGone(refuse('/r/1'), refuse('/p/1/rules'), (r: { id: string }) => r.id === '1', 'deleted')).toBe('deleted already (by another apply, or in the app)');
  });

  it('keeps the 404 an error when the scope still lists the object', async () => {
    await expect(removeOrFindGone(refuse('/r/1'), async () => [{ id: '1' }], (r) => r.id === '1', 'deleted')).rejects.toBeInstanceOf(ApiError);
  });
});
