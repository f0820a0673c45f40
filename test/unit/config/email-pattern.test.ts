import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN, schemasDir } from '../../../src/config/schema-names.js';

// The rule docket's validators check (ajv-formats' `email` format, full mode).
const { fullFormats } = createRequire(import.meta.url)('ajv-formats/dist/formats') as { fullFormats: { email: RegExp } };

describe('EMAIL_PATTERN (the e-mail rule written for editors)', () => {
  it('takes and refuses exactly what docket\'s e-mail format does', () => {
    const pattern = new RegExp(EMAIL_PATTERN, 'u');
    const samples = [
      'a@b.c', 'x@example.co1', 'Legal-Ops@Acme.Example', "o'brien+tag@mail.example.org", 'a.b@c-d.example', '!#$%&*/=?^_`{|}~-@x.io',
      'ü@example.com', '"qu"@example.com', 'a@[1.2.3.4]', 'a@-x.com', 'a@x-.com', 'a..b@x.com', '.a@x.com', 'a@x', 'a b@x.com', '@x.com', 'a@', 'a@x..com',
    ];
    for (const email of samples) expect([email, pattern.test(email)]).toEqual([email, fullFormats.email.test(email)]);
  });

  it('is how every schema file spells an e-mail: none asks editors for their own format check', () => {
    const files = readdirSync(schemasDir(), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
    const spelled = files.map((f) => readFileSync(path.join(schemasDir(), f), 'utf8'));
    expect(files.filter((_, i) => spelled[i]!.includes('"format": "email"'))).toEqual([]);
    // Member, docket.yaml, playbook, organization and every template type.
    expect(spelled.filter((text) => text.includes(JSON.stringify(EMAIL_PATTERN))).length).toBeGreaterThanOrEqual(14);
  });
});
