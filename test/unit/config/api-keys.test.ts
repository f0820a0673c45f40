import { describe, expect, it } from 'vitest';
import { holdsKey, keyInFileText } from '../../../src/config/api-keys.js';
import { keysIn } from '../../../src/config/interpolate.js';
import { filesHoldingKeys } from '../../../src/export/keys.js';
import { keyValues, redact } from '../../../src/cli/redact.js';

const KEY = 'sk/Live+Abc123=x9';
const ENV = { DOCKET_API_KEY: KEY };

describe('a key held in text', () => {
  it('is found in any letter case and percent-escaped, as output redacts it: pull and export would otherwise write what the report showed as [redacted] (probe DU)', () => {
    for (const held of [KEY, KEY.toUpperCase(), KEY.toLowerCase(), encodeURIComponent(KEY), encodeURIComponent(KEY).toLowerCase(), encodeURIComponent(KEY.toUpperCase())]) {
      expect(holdsKey(`up ${held} down`, KEY), held).toBe(true);
    }
    // A stray escape elsewhere does not hide one; text without the key is not taken for it.
    expect(holdsKey(`100% sure: ${encodeURIComponent(KEY)}`, KEY)).toBe(true);
    expect(holdsKey('sk/Live+Abc123 and x9', KEY)).toBe(false);
  });

  it('is found with its accented letters composed or decomposed: a name is sent composed, so a key typed decomposed is sent as the key (probe AE-2)', () => {
    const key = 'clé-Sécrète-Ünïcode-0123456789';
    for (const [written, form] of [[key.normalize('NFD'), 'NFD'], [key.normalize('NFD').toUpperCase(), 'NFD upper'], [key.normalize('NFC'), 'NFC']] as const) {
      expect(holdsKey(`NFD ${written}`, key), form).toBe(true);
      expect(holdsKey(`NFD ${written}`, key.normalize('NFD')), `${form} against a decomposed key`).toBe(true);
      expect(keysIn({ name: written }, [['DOCKET_API_KEY', key]]).map((p) => p.code), form).toEqual(['api-key-in-file']);
    }
    expect(redact(`description: d ${key.normalize('NFD')}`, keyValues({ DOCKET_API_KEY: key }))).toBe('description: d [redacted]');
    // Some of its letters decomposed and others not (second read SR99-4).
    const mixed = 'clé-Se\u0301crète-Ünïcode-0123456789';
    expect(holdsKey(`x ${mixed}`, key)).toBe(true);
    expect(keysIn({ description: mixed }, [['DOCKET_API_KEY', key]]).map((p) => p.code)).toEqual(['api-key-in-file']);
    expect(redact(`d ${mixed}`, keyValues({ DOCKET_API_KEY: key }))).toBe('d [redacted]');
    // Other accented text is not taken for it; printed composed, which shows the same.
    expect(holdsKey('clé-Sécrète', key)).toBe(false);
    expect(redact('Se\u0301crète', keyValues({ DOCKET_API_KEY: key }))).toBe('Se\u0301crète'.normalize('NFC'));
  });

  it('is refused in a value, a file and an export, at the line that holds it', () => {
    expect(keysIn({ description: `see ${KEY.toUpperCase()}` }, [['DOCKET_API_KEY', KEY]]).map((p) => [p.pointer, p.code])).toEqual([['/description', 'api-key-in-file']]);
    const found = keyInFileText('p.yaml', `kind: Playbook\nname: P\ndescription: ${encodeURIComponent(KEY)}\n`, ENV);
    expect([found?.code, found?.line]).toEqual(['api-key-in-file', 3]);
    expect(filesHoldingKeys([{ path: 'playbooks/p.yaml', content: `name: ${KEY.toLowerCase()}\n` }], [['DOCKET_API_KEY', KEY]]).map((f) => f.variables)).toEqual([['DOCKET_API_KEY']]);
  });
});
