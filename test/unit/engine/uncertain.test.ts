import { describe, expect, it } from 'vitest';
import { Diagnostics, type Diagnostic } from '../../../src/diagnostics.js';
import { resolveUncertain } from '../../../src/engine/uncertain.js';
import type { DesiredResource, UncertainUpload } from '../../../src/engine/types.js';

const SHA = 'a'.repeat(64);
const upload: UncertainUpload = { kind: 'attachment', key: 'Security Exhibit', field: 'sha256', file: 'attachments/security.pdf', sha256: SHA, since: '2026-11-23T10:00:00.000Z', settled: null, unreadable: 'attachments cannot be listed over the API' };

function desired(fields: Record<string, unknown>, pinId?: string): DesiredResource {
  return {
    kind: 'attachment',
    key: 'Security Exhibit',
    name: 'Security Exhibit',
    fields: { name: 'Security Exhibit', ...fields },
    partial: false,
    refs: [],
    renamedFrom: [],
    source: { file: 'attachments/security.yaml', line: 1, col: 1 },
    fieldSources: { sha256: { file: 'attachments/security.yaml', line: 4, col: 1 } },
    ...(pinId ? { pinId } : {}),
  };
}

describe('resolveUncertain', () => {
  it('is an error at the file line when the configuration still wants that very file, so nothing is uploaded twice blindly', () => {
    const diagnostics = new Diagnostics();
    const out = resolveUncertain([upload], [desired({ sha256: SHA })], false, diagnostics);
    expect(out).toEqual({ updates: [], warnings: [] });
    expect(diagnostics.items).toMatchObject([{ severity: 'error', code: 'uncertain-upload', file: 'attachments/security.yaml', line: 4, message: expect.stringContaining('it may already exist live, and attachments cannot be listed over the API, so docket will not upload it again blindly') }]);
    expect(diagnostics.items[0]!.message).toContain('attachments/security.pdf (sha256 aaaaaaaaaaaa…) started 2026-11-23T10:00:00.000Z was never confirmed');
    // A service that answers a create with 204 and no body never names the new attachment either.
    expect(diagnostics.items[0]!.message).toContain('or the service\'s answer was lost or did not name the new attachment');
    expect(diagnostics.items[0]!.hint).toContain('--retry-uncertain');
  });

  it('one the service took without naming it is live for sure: the error says so and points at `id:` with --adopt-files', () => {
    const diagnostics = new Diagnostics();
    resolveUncertain([{ ...upload, answered: true }], [desired({ sha256: SHA })], false, diagnostics);
    expect(diagnostics.items).toMatchObject([
      {
        code: 'uncertain-upload',
        line: 4,
        message:
          'attachment "Security Exhibit": the service took the upload of attachments/security.pdf (sha256 aaaaaaaaaaaa…) on 2026-11-23T10:00:00.000Z but did not name the new attachment, and attachments cannot be listed over the API, so docket cannot learn its id',
      },
    ]);
    expect(diagnostics.items[0]!.hint).toMatch(/^find its id in the app, add it as `id:`/);
  });

  it("a Word term's request that may still land stops the plan whatever its file holds now: landing after a publish of other bytes, it would be the live version (probe RK-1)", () => {
    const word: UncertainUpload = { kind: 'custom-term', key: 'Word Term', field: 'docx', file: 'custom-terms/w.docx', sha256: SHA, since: '2026-11-23T10:00:00.000Z', settled: { id: 't-1', file: 'custom-terms/w.docx', sha256: 'c'.repeat(64), version: 1 }, unreadable: 'the publish is not live yet, though a request docket stopped waiting for may still be running at the service', landing: true };
    const term = (sha: string): DesiredResource => ({ ...desired({ docx: sha }), kind: 'custom-term', key: 'Word Term', name: 'Word Term', payload: { docx_file: 'custom-terms/w.docx' }, fieldSources: { docx: { file: 'custom-terms/w.yaml', line: 3, col: 12 } } });
    // Changed again, or back to the bytes live before: not sent, nor its mark dropped, until it lands or ten minutes pass.
    for (const sha of ['b'.repeat(64), 'c'.repeat(64)]) {
      const diagnostics = new Diagnostics();
      expect(resolveUncertain([word], [term(sha)], false, diagnostics)).toEqual({ updates: [], warnings: [] });
      expect(diagnostics.items).toMatchObject([
        { severity: 'error', code: 'uncertain-upload', file: 'custom-terms/w.yaml', line: 3, message: expect.stringContaining('may still be running at the service, and landing after a publish of the file as it is now it would be the live version, so docket will not publish yet') },
      ]);
    }
    // Renamed in the files since: the same term, renamed in place, where the request may still land (second read SR89-4).
    const stopped = new Diagnostics();
    const renamed = resolveUncertain([word], [{ ...term('b'.repeat(64)), key: 'Word Term 2', name: 'Word Term 2', renamedFrom: ['Word Term'] }], false, stopped);
    expect([renamed, stopped.items.map((d) => d.code)]).toEqual([{ updates: [], warnings: [] }, ['uncertain-upload']]);
    // The files took back a rename an apply made before its publish's answer: the plan renames the
    // term back from the name the request was sent under, and still waits for it (probe HE-1).
    const back = new Diagnostics();
    const underNew = { ...word, key: 'Word Term 2' };
    const liveKeys = new Map([['custom-term:Word Term', 'custom-term:Word Term 2']]);
    expect([resolveUncertain([underNew], [term(SHA)], false, back, { liveKeys }), back.items.map((d) => d.code)]).toEqual([{ updates: [], warnings: [] }, ['uncertain-upload']]);
    const notRenamed = new Diagnostics();
    expect([resolveUncertain([underNew], [term(SHA)], false, notRenamed), notRenamed.items]).toEqual([{ updates: [], warnings: [] }, []]);
    // Its document taken out: nothing sends it, and the mark stays for a document put back within the ten minutes (probe RQ-1).
    const gone = new Diagnostics();
    expect([resolveUncertain([word], [], false, gone), gone.items]).toEqual([{ updates: [], warnings: [] }, []]);
    // --retry-uncertain sends it now, keeping a note of the first.
    const retried = resolveUncertain([word], [term('b'.repeat(64))], true, new Diagnostics());
    expect(retried.updates).toMatchObject([{ kind: 'custom-term', entry: { abandoned: { sha256: SHA } } }]);
    // Of other bytes now, the warning says the first may land after it as the live version (probe RQ-3).
    expect(retried.warnings).toEqual([expect.stringContaining('apply sends the file as it is now, and if the first request still lands after it, that upload is the live version until the next apply publishes the file again')]);
    // An attachment's upload of other bytes is an orphan at most: forgotten, with a warning.
    expect(resolveUncertain([upload], [desired({ sha256: 'b'.repeat(64) })], false, new Diagnostics()).warnings[0]).toContain('may exist live as an orphan');
  });

  it('an upload of the same file sent with another description than the files give now is another upload: forgotten as a possible orphan, not offered for adoption (probe RQ-5)', () => {
    const sent = { ...upload, sentWith: { description: 'Sec measures' } };
    const diagnostics = new Diagnostics();
    const out = resolveUncertain([sent], [desired({ sha256: SHA, description: 'Security measures' })], false, diagnostics);
    expect([diagnostics.items, out.updates.map((u) => u.entry), out.warnings]).toEqual([[], [null], [expect.stringContaining('; its description now differs from the one sent with that upload, so apply drops the record of it')]]);
    // The same description: the stop, as before.
    resolveUncertain([sent], [desired({ sha256: SHA, description: 'Sec measures' })], false, diagnostics);
    expect(diagnostics.items.map((d) => d.code)).toEqual(['uncertain-upload']);
  });

  it('--retry-uncertain drops the mark with a warning that a first copy may be an orphan', () => {
    const diagnostics = new Diagnostics();
    const out = resolveUncertain([upload], [desired({ sha256: SHA })], true, diagnostics);
    expect(diagnostics.items).toEqual([]);
    expect(out.updates).toMatchObject([{ kind: 'attachment', key: 'Security Exhibit', entry: null }]);
    expect(out.warnings[0]).toContain('apply uploads it again');
  });

  it('--retry-uncertain with --targets that leave the object out keeps its mark, with no warning: the plan that sends it stops there (probe PQ-1)', () => {
    const diagnostics = new Diagnostics();
    const unsent: { of: string; diagnostic: Diagnostic }[] = [];
    const out = resolveUncertain([upload], [desired({ sha256: SHA })], true, diagnostics, { sends: () => false, unsent });
    expect([out, diagnostics.items, unsent]).toEqual([{ updates: [], warnings: [] }, [], []]);
    // A target that sends it: retried as ever.
    expect(resolveUncertain([upload], [desired({ sha256: SHA })], true, new Diagnostics(), { sends: () => true }).updates).toHaveLength(1);
  });

  it('an id: pin settles it; another file or no declaration only warns, naming the possible orphan', () => {
    for (const [d, warns] of [
      [[desired({ sha256: SHA }, 'att-9')], 0],
      [[desired({ sha256: 'b'.repeat(64) })], 1],
      [[], 1],
    ] as const) {
      const diagnostics = new Diagnostics();
      const out = resolveUncertain([upload], [...d], false, diagnostics);
      expect(diagnostics.items).toEqual([]);
      expect(out.updates).toHaveLength(1);
      expect(out.warnings).toHaveLength(warns);
      if (warns) expect(out.warnings[0]).toContain('may exist live as an orphan');
    }
  });

  it('the same path with other bytes is said so, not as another file (probe OT-3)', () => {
    const other = { ...desired({ sha256: 'b'.repeat(64) }), payload: { file: 'attachments/security.pdf' } };
    const moved = { ...desired({ sha256: 'b'.repeat(64) }), payload: { file: 'attachments/other.pdf' } };
    expect(resolveUncertain([upload], [other], false, new Diagnostics()).warnings[0]).toContain('; attachments/security.pdf now holds other bytes than that upload, so apply drops the record of it');
    expect(resolveUncertain([upload], [moved], false, new Diagnostics()).warnings[0]).toContain('; the configuration now names another file, so apply drops the record of it');
  });

  it('renamed away with renamed_from, it is said so (uploaded anew under the new name), not as no longer declared (probe FM)', () => {
    const diagnostics = new Diagnostics();
    const renamed = { ...desired({ sha256: SHA }), key: 'Security Annex', name: 'Security Annex', renamedFrom: ['Security Exhibit'] };
    const out = resolveUncertain([upload], [renamed], false, diagnostics);
    expect(diagnostics.items).toEqual([]);
    expect(out.updates).toMatchObject([{ kind: 'attachment', key: 'Security Exhibit', entry: null }]);
    expect(out.warnings).toEqual([
      'attachment "Security Exhibit": an upload of attachments/security.pdf (sha256 aaaaaaaaaaaa…) started 2026-11-23T10:00:00.000Z was never confirmed and may exist live as an orphan docket cannot list or delete; the configuration renames it to "Security Annex", which is uploaded anew under that name, so apply drops the record of it',
    ]);
  });

  it('a pin of the attachment the upload takes the place of (renamed, so recorded under its former name) settles nothing', () => {
    const diagnostics = new Diagnostics();
    const out = resolveUncertain([{ ...upload, replaces: ['att-7'] }], [desired({ sha256: SHA }, 'ATT-7')], false, diagnostics);
    expect(out.updates).toEqual([]);
    expect(diagnostics.items).toMatchObject([{ code: 'uncertain-upload', line: 4 }]);
  });

  it('a pin of the upload the lock already records, or of one it replaced, settles nothing: the plan still stops at the file line', () => {
    const settled = { id: 'att-1', file: 'attachments/security.pdf', sha256: 'c'.repeat(64), pinned: 'att-0', superseded: ['att-old'] };
    for (const pin of ['att-1', 'ATT-0', 'att-old']) {
      const diagnostics = new Diagnostics();
      const out = resolveUncertain([{ ...upload, settled }], [desired({ sha256: SHA }, pin)], false, diagnostics);
      expect(out.updates).toEqual([]);
      expect(diagnostics.items).toMatchObject([{ code: 'uncertain-upload', line: 4 }]);
      // The document has an `id:` already: the new one goes in its place, not beside it (probe JW-1).
      expect(diagnostics.items[0]!.hint).toMatch(/^if it is live, put its id \(from the app\) in this document's `id:` in place of the one there and run/);
    }
    const answered = new Diagnostics();
    resolveUncertain([{ ...upload, settled, answered: true }], [desired({ sha256: SHA }, 'att-1')], false, answered);
    expect(answered.items[0]!.hint).toMatch(/^find its id in the app, put it in this document's `id:` in place of the one there \(the upload this one replaces\)/);
    // A pin added to adopt is this organization's id in a document other environments read too (probe RI-4).
    for (const d of [answered, new Diagnostics()]) {
      if (d !== answered) resolveUncertain([{ ...upload, settled }], [desired({ sha256: SHA }, 'att-1')], false, d);
      expect(d.items[0]!.hint).toContain('(then the `id:` line may go again: docket.lock.json keeps the upload, and another environment reading this document would take the id as its own)');
    }
  });

  it('a pin of the upload docket.lock.json records as another attachment is no answer to this one: forgotten as a possible orphan, said, not dropped unsaid (probe HE-2)', () => {
    const recordedAs = (kind: string, id: string) => (kind === 'attachment' && id.toLowerCase() === 'att-b' ? 'B' : undefined);
    const diagnostics = new Diagnostics();
    const out = resolveUncertain([upload], [desired({ sha256: SHA }, 'att-b')], false, diagnostics, { recordedAs });
    expect(diagnostics.items).toEqual([]);
    expect(out.updates).toMatchObject([{ kind: 'attachment', key: 'Security Exhibit', entry: null }]);
    expect(out.warnings).toEqual([
      'attachment "Security Exhibit": an upload of attachments/security.pdf (sha256 aaaaaaaaaaaa…) started 2026-11-23T10:00:00.000Z was never confirmed and may exist live as an orphan docket cannot list or delete; the configuration pins id att-b, which docket.lock.json records as the upload of attachment "B", not this one, so apply drops the record of it',
    ]);
    // A pin of an id docket.lock.json records for no other (found in the app): adopted, as before, without a warning.
    const adopted = resolveUncertain([upload], [desired({ sha256: SHA }, 'att-new')], false, new Diagnostics(), { recordedAs });
    expect([adopted.updates.length, adopted.warnings]).toEqual([1, []]);
  });
});
