/**
 * A file beside a missing one whose name differs only in letter case or in how Unicode encodes it
 * (`Consulting.md` for `consulting.md`; `café.pdf` decomposed, as macOS writes names): the file meant,
 * which a case-blind or normalising file system found and Linux, as CI runs it, does not.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export interface NearName {
  name: string;
  /** How the two names differ, for a message. */
  differs: string;
}

export async function nearName(file: string): Promise<NearName | undefined> {
  const base = path.basename(file);
  const entries = await readdir(path.dirname(file)).catch((): string[] => []);
  const composed = base.normalize('NFC');
  const encoded = entries.find((e) => e !== base && e.normalize('NFC') === composed);
  if (encoded !== undefined) return { name: encoded, differs: 'only in how Unicode encodes its letters (no visible difference: an accent as one character or two)' };
  const cased = entries.find((e) => e !== base && e.normalize('NFC').toLowerCase() === composed.toLowerCase());
  return cased === undefined ? undefined : { name: cased, differs: 'in letter case' };
}
