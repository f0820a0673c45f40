/** Export's notes as the summary prints them (probes QU-4, RJ-6). */
import { describe, expect, it } from 'vitest';
import { groupedNotes } from '../../../src/export/summary.js';

describe('groupedNotes', () => {
  it('says once, naming the objects, what several objects are told alike; general notes first', () => {
    const pending = '`attachments` (dea3ef41-881f-42f2-bf4d-e89ba154d3b7) not written: an attachment can be named only once its Attachment document is active';
    const other = '`attachments` (08d30629-ef8d-4893-82cd-0d591dedc255) not written: an attachment can be named only once its Attachment document is active';
    const general = 'templates name attachments by id; once an attachment is managed here, write `{ attachment: <name> }` instead';
    const notes = [`template "Template 004": ${pending}`, general, ...[8, 104, 204, 304, 404, 504].map((n) => `template "Template ${n}": ${n === 8 ? other : pending}`), 'template "Say \\": odd": `x` not written'];
    expect(groupedNotes(notes)).toEqual([
      general,
      `templates "Template 004", "Template 104", "Template 204", "Template 304", "Template 404" and 1 more: ${pending}`,
      `template "Template 8": ${other}`,
      'template "Say \\": odd": `x` not written',
    ]);
  });

  it('groups the notes of kinds said in two words, and of members, after the general ones (probe BB-2)', () => {
    const general = 'attachments cannot be listed: the service has no list of them';
    const notSent = 'not written, as docket\'s files cannot name an address with letters past ASCII before the `@`';
    const notes = [`member "jürgen@acme.example": ${notSent}`, `member "zoë@acme.example": ${notSent}`, 'custom term "W1": the service could not convert it', 'custom term "W2": the service could not convert it', general];
    expect(groupedNotes(notes)).toEqual([general, `members "jürgen@acme.example", "zoë@acme.example": ${notSent}`, 'custom terms "W1", "W2": the service could not convert it']);
    // A sentence naming objects later is a general note, as written (second read SR100-4).
    const several = ['several templates are named "MSA": docket identifies them by name', 'several templates are named "My NDA": docket identifies them by name'];
    expect(groupedNotes(several)).toEqual(several);
  });

  it('leaves notes about one object each as they are', () => {
    const notes = ['playbook "A" has several rules named "R": docket identifies rules by name', 'member "a@x.example": its name is not written'];
    expect(groupedNotes(notes)).toEqual(notes);
  });
});
