/**
 * A file beside a missing one whose name differs only in letter case or in how Unicode encodes it
 * (`Consulting.md` for `consulting.md`; `café.pdf` decomposed, as macOS writes names): the file meant,
 * which a case-blind or normalising file system found and Linux, as CI runs it, does not.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export interface NearName {
  /** The name there, from the first folder that differs (`terms/body.md` for `Terms/body.md`). */
  name: string;
  /** How the two names differ, for a message. */
  differs: string;
  /** Where it is. */
  path: string;
}

/** A folder's names by how they compare: composed (NFC), and composed in lower case. */
export interface FolderNames {
  composed: Map<string, string[]>;
  folded: Map<string, string[]>;
  /** The folder could be read (it exists). */
  read: boolean;
}

const ENCODED = 'only in how Unicode encodes its letters (no visible difference: an accent as one character or two)';
const CASED = 'in letter case';

/**
 * `listings`: each folder's names, read and indexed once for every file missing there (20,000
 * missing files in one folder read it once, and look each up at once: second read SR71-3).
 */
export async function nearName(file: string, listings: Map<string, Promise<FolderNames>> = new Map()): Promise<NearName | undefined> {
  const base = path.basename(file);
  const folder = path.dirname(file);
  const names = await listingOf(folder, listings);
  if (!names.read) {
    // The folder is what differs (`Terms/` for `terms/`, probe PB-5): the name looked for there.
    if (folder === path.dirname(folder)) return undefined;
    const up = await nearName(folder, listings);
    if (!up) return undefined;
    const there = await listingOf(up.path, listings);
    const exact = there.composed.get(base.normalize('NFC'))?.[0] ?? there.folded.get(base.normalize('NFC').toLowerCase())?.[0];
    if (exact === undefined) return undefined;
    const differs = up.differs === CASED || exact.normalize('NFC') !== base.normalize('NFC') ? CASED : up.differs;
    return { name: `${up.name}/${exact}`, differs, path: path.join(up.path, exact) };
  }
  const other = (found: string[] | undefined): string | undefined => found?.find((n) => n !== base);
  const encoded = other(names.composed.get(base.normalize('NFC')));
  if (encoded !== undefined) return { name: encoded, differs: ENCODED, path: path.join(folder, encoded) };
  const cased = other(names.folded.get(base.normalize('NFC').toLowerCase()));
  return cased === undefined ? undefined : { name: cased, differs: CASED, path: path.join(folder, cased) };
}

function listingOf(folder: string, listings: Map<string, Promise<FolderNames>>): Promise<FolderNames> {
  let listing = listings.get(folder);
  if (!listing) listings.set(folder, (listing = namesOf(folder)));
  return listing;
}

async function namesOf(folder: string): Promise<FolderNames> {
  let read = true;
  const names = await readdir(folder).catch((): string[] => ((read = false), []));
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
  return { composed, folded, read };
}
