/**
 * Whether a path names a folder by how it is written, made or not: it ends in `/` (or `\`), `/.`
 * or `/..`, or is `.` or `..`. Written to as a file, it fails, or lands where it was not meant to.
 */
export function namesFolder(path: string): boolean {
  return /[\\/]\.?$|^\.\.?$|[\\/]\.\.$/.test(path);
}
