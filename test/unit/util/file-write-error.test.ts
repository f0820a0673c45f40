import { describe, expect, it } from 'vitest';
import { FileWriteError } from '../../../src/util/file-write-error.js';

const failure = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code, syscall: 'open' });

describe('FileWriteError', () => {
  it('says what to do about the error it had: space for a full disk, permissions for a refusal (probe ES)', () => {
    expect(new FileWriteError('.docket/emulator.json', failure('EACCES')).hint).toBe('make the file and its folder writable, then run the command again');
    expect(new FileWriteError('docket.lock.json', failure('ENOSPC')).hint).toBe('free some space, then run the command again');
    expect(new FileWriteError('docket.lock.json', failure('EIO')).hint).toBe('free the space or make the file and its folder writable, then run the command again');
  });
});
