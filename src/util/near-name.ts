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

/** A folder's names by how they compare: composed (NFC), and composed in lower case. */
export interface FolderNames {
  composed: Map<string, string[]>;
  folded: Map<string, string[]>;
}

/**
 * `listings`: each folder's names, read and indexed once for every file missing there (20,000
 * missing files in one folder read it once, and look each up at once: second read SR71-3).
 */
export async function nearName(file: string, listings: Map<string, Promise<FolderNames>> = new Map()): Promise<NearName | undefined> {
  const base = path.basename(file);
  const folder = path.dirname(file);
  let listing = listings.get(folder);
  if (!listing) listings.set(folder, (listing = namesOf(folder)));
  const { composed, folded } = await listing;
  const other = (names: string[] | undefined): string | undefined => names?.find((n) => n !== base);
  const encoded = other(composed.get(base.normalize('NFC')));
  if (encoded !== undefined) return { name: encoded, differs: 'only in how Unicode encodes its letters (no visible difference: an accent as one character or two)' };
  const cased = other(folded.get(base.normalize('NFC').toLowerCase()));
  return cased === undefined ? undefined : { name: cased, differs: 'in letter case' };
}

async function namesOf(folder: string): Promise<FolderNames> {
  const names = await readdir(folder).catch((): string[] => []);
  const composed = new Map<string, string[]>();
  const folded = new Map<string, string[]>();
  const add = (map: Map<string, string[]>, key: string, name: string): void => {
    const list = map.get(key);
    if (list) list.push(name);
    else map.set(key, [name]);
  };
  for (const name of names) {
    const nfc = name.normalize('NFC');
    add(composed, nfc, name);
    add(folded, nfc.toLowerCase(), name);
  }
  return { composed, folded };
}
