/**
 * Whether a file-system error's code is a refusal of permission: EACCES, or EPERM, which some
 * file systems (and a root without its capabilities) give for the same refusal.
 */
export function isPermissionDenied(code: string | undefined): boolean {
  return code === 'EACCES' || code === 'EPERM';
}

/** As isPermissionDenied, or a read-only file system: either way the write's place refuses it. */
export function isWriteRefused(code: string | undefined): boolean {
  return isPermissionDenied(code) || code === 'EROFS';
}

/** Why a file could not be read or written, in words for a refusal of permission, else its code. */
export function deniedOrCode(code: string | undefined): string {
  return isPermissionDenied(code) ? 'permission denied' : (code ?? 'unknown error');
}
