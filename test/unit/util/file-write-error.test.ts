import { describe, expect, it } from 'vitest';
import { FileWriteError, folderWriteHint } from '../../../src/util/file-write-error.js';

const failure = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code, syscall: 'open' });

describe('FileWriteError', () => {
  it('says what to do about the error it had: space for a full disk, permissions for a refusal (probe ES)', () => {
    expect(new FileWriteError('.docket/emulator.json', failure('EACCES')).hint).toBe('make the file and its folder writable, then run the command again');
    expect(new FileWriteError('docket.lock.json', failure('ENOSPC')).hint).toBe('free some space, then run the command again');
    expect(new FileWriteError('docket.lock.json', failure('EIO')).hint).toBe('free the space or make the file and its folder writable, then run the command again');
  });
});

describe('folderWriteHint', () => {
  it('says to free space for a full disk, as apply and pull do, and to check the folder otherwise (probe HC-4)', () => {
    expect(folderWriteHint('ENOSPC')).toBe('free some space, then run the command again');
    expect(folderWriteHint('EDQUOT')).toBe('free some space, then run the command again');
    expect(folderWriteHint('EACCES')).toBe('check that the folder can be created and written');
    expect(folderWriteHint(undefined)).toBe('check that the folder can be created and written');
  });
});
