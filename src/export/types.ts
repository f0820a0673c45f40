/** What an export produces: files, files the user must add, and notes, per kind. */
import type { KindName } from '../kinds/index.js';
import type { ExportFile, SchemaPaths } from './yaml.js';

/** A data file the services cannot give back (a Word term, an attachment PDF): the user adds it. */
export interface MissingFile {
  kind: KindName;
  /** Name of the resource that names the file. */
  name: string;
  /** Where to put it, relative to the output directory. */
  path: string;
  /** The resource document, written as `*.yaml.pending` so docket ignores it until the file is there. */
  document: string;
  /** `Word file` or `PDF`. */
  what: string;
  /** Adopted, it is published again all the same (a Word file the service could not convert). */
  publishedAgain?: true;
  /** Where the source configuration's docket.lock.json says it was uploaded from, when known. */
  sourceFile?: string;
  /** The sha256 the lock records of that upload: the file is the one meant only while it holds those bytes. */
  sourceSha256?: string;
  /** Set by the command, which reads the source file: `changed` (other bytes now), `gone` (no such file). */
  sourceState?: 'changed' | 'gone';
}

export interface ExportPart {
  kind: KindName;
  files: ExportFile[];
  missing: MissingFile[];
  /** Things the user should know: values not exported, and why. */
  notes: string[];
  /** How many resources the files hold. */
  count: number;
  /** Children exported inside them (a playbook's rules), by kind. */
  children: { kind: KindName; count: number }[];
  /** The document each live object was written to, by live id. */
  documents: Record<string, string>;
  /** Names several live objects (or children of one) share: plan refuses them until they are renamed. */
  sameNames: number;
}

export type { ExportFile, SchemaPaths };
