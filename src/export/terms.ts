/**
 * custom-terms/<slug>.yaml: text terms with their markdown in <slug>.md (`body_file`); Word terms
 * name <slug>.docx (`docx_file`), which the service cannot give back, so the user adds it and
 * records it with `docket apply --adopt-files`.
 */
import { assignSlugs, duplicateNameNotes, LAYOUT } from './layout.js';
import { emptyPart, type ExportPart, type SchemaPaths } from './types.js';
import { resourceFile } from './yaml.js';

export type TermData =
  | { id: string; name: string; type: 'text'; body: string | null }
  | {
      id: string;
      name: string;
      type: 'file';
      /** The service could not convert the current version; plan will publish the file again. */
      conversionFailed?: boolean;
      /** The file the source configuration uploaded (its docket.lock.json entry), when known. */
      sourceFile?: string;
    };

export function exportTerms(terms: readonly TermData[], paths: SchemaPaths): ExportPart {
  const part = emptyPart('custom-term');
  part.notes.push(...duplicateNameNotes('custom terms', terms.map((t) => t.name)));
  for (const { item: term, slug } of assignSlugs(terms, (t) => t.name, (t) => t.id)) {
    const file = `${LAYOUT.customTerms}/${slug}.yaml`;
    if (term.type === 'text') {
      part.files.push(resourceFile(file, 'custom-term.schema.json', [{ kind: 'CustomTerm', name: term.name, body_file: `${slug}.md` }], paths));
      // Trailing newlines are not compared (DESIGN "No phantom diffs"); the file ends with one.
      part.files.push({ path: `${LAYOUT.customTerms}/${slug}.md`, content: `${(term.body ?? '').replace(/\n+$/, '')}\n` });
      if (!term.body) part.notes.push(`custom term "${term.name}" has an empty body live; docket needs some text in ${LAYOUT.customTerms}/${slug}.md`);
    } else {
      const docx = `${LAYOUT.customTerms}/${slug}.docx`;
      // Pending until the user adds the Word file: docket reads only *.yaml, so the export plans clean.
      part.files.push(resourceFile(`${file}.pending`, 'custom-term.schema.json', [{ kind: 'CustomTerm', name: term.name, docx_file: `${slug}.docx` }], paths));
      part.missing.push({ kind: 'custom-term', name: term.name, path: docx, document: `${file}.pending`, what: 'Word file', ...(term.sourceFile ? { sourceFile: term.sourceFile } : {}) });
      if (term.conversionFailed) {
        part.notes.push(`custom term "${term.name}": the service could not convert its current Word file to PDF, so plan will publish ${docx} again`);
      }
    }
    part.count++;
  }
  return part;
}
