import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN } from '../../../src/config/schema-names.js';

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
});
