import { describe, expect, it } from 'vitest';
import { normDeep, normEmail, normName, normNumeric, normScalar, normText } from '../../../src/engine/normalize.js';
import { sameValue } from '../../../src/engine/canonical.js';

describe('normText (optional text)', () => {
  it('turns CRLF and lone CR line endings into LF', () => {
    expect(normText('one\r\ntwo\rthree')).toBe('one\ntwo\nthree');
  });

  it('removes every trailing newline of a block scalar but keeps inner blank lines', () => {
    expect(normText('ACCEPT 3 years\n\nCOUNTERPROPOSE 2\n\n\n')).toBe('ACCEPT 3 years\n\nCOUNTERPROPOSE 2');
    expect(normText('line\r\n')).toBe('line');
  });

  it('keeps leading whitespace and trailing spaces, which the service keeps too', () => {
    expect(normText('  indented  ')).toBe('  indented  ');
  });

  it('treats "" like null and undefined', () => {
    expect(normText('')).toBeNull();
    expect(normText(null)).toBeNull();
    expect(normText(undefined)).toBeNull();
    expect(normText('\n\n')).toBeNull();
  });

  it('makes a file value and the value the service stores compare equal', () => {
    expect(sameValue(normText('How long\r\nit lasts\n'), normText('How long\nit lasts'))).toBe(true);
    expect(sameValue(normText(''), normText(null))).toBe(true);
  });
});

describe('normName (required text)', () => {
  it('composes a name, keeps its line ends (a live name ending in one is another name: probe QT-2), and keeps an empty name empty', () => {
    expect(normName('Cafe\u0301')).toBe('Caf\u00e9');
    expect(normName('Inbound NDA\r\n')).toBe('Inbound NDA\r\n');
    expect(normName('')).toBe('');
    expect(normName(undefined)).toBe('');
  });
});

describe('normDeep (template parameters)', () => {
  it('leaves out a mapping\'s key with no value at any depth ("", a line end, null), as the service\'s answer does, and keeps a list\'s items as they are', () => {
    const live = normDeep([{ cost: 5, fee_type: 'Subscription' }]);
    for (const description of ['', '\n', null]) expect(normDeep([{ description, cost: '5', fee_type: 'Subscription' }])).toEqual(live);
    expect(normDeep({ a: { b: '\n' }, c: 1 })).toEqual({ c: 1 });
    expect(normDeep(['', 'x'])).toEqual(['', 'x']);
  });
});

describe('normEmail', () => {
  it('compares e-mails case-insensitively', () => {
    expect(normEmail('Alice@ACME.example')).toBe('alice@acme.example');
    expect(sameValue(normEmail('BOB@acme.example'), normEmail('bob@Acme.Example'))).toBe(true);
  });

  it('reads a domain of other letters as a URL spells it, the form validate asks the files for: one mailbox, not two users (probe KE-1)', () => {
    expect(normEmail('Uni@B\u00fccher.example')).toBe('uni@xn--bcher-kva.example');
    expect(normEmail('uni@xn--bcher-kva.example')).toBe('uni@xn--bcher-kva.example');
    // A local part of other letters stays as it is; a domain the mapping refuses too.
    expect(normEmail('J\u00f6rg@acme.example')).toBe('j\u00f6rg@acme.example');
    expect(normEmail('a@b\u00fc\u0000x.example')).toBe('a@b\u00fc\u0000x.example');
  });

  it('trims surrounding whitespace', () => {
    expect(normEmail('  alice@acme.example ')).toBe('alice@acme.example');
  });

  it('treats "" and absence as no e-mail (the default reviewer)', () => {
    expect(normEmail('')).toBeNull();
    expect(normEmail(null)).toBeNull();
    expect(normEmail(undefined)).toBeNull();
  });
});

describe('normScalar', () => {
  it('compares numbers and numeric strings by value', () => {
    expect(normScalar('2')).toBe(2);
    // Spaces around it mark text: sent as written, not found equal to the live 2 (probe NT-2).
    expect(normScalar(' 2 ')).toBe(' 2 ');
    expect(sameValue(normScalar('  7  '), normScalar('7'))).toBe(false);
    expect(normScalar('-1.5')).toBe(-1.5);
    expect(sameValue(normScalar('2'), normScalar(2))).toBe(true);
    expect(sameValue(normScalar('2.0'), normScalar(2))).toBe(true);
    expect(sameValue(normScalar('3'), normScalar(2))).toBe(false);
    // Decimals written without a digit on one side are numbers too.
    expect([normScalar('.5'), normScalar('5.'), normScalar('-.5')]).toEqual([0.5, 5, -0.5]);
  });

  it('keeps a whole number past 2^53 - 1 as its exact text: as a number it would be sent rounded', () => {
    expect(normScalar('99999999999999999999')).toBe('99999999999999999999');
    expect(normScalar('9007199254740992')).toBe('9007199254740992');
    expect(normScalar('9007199254740991')).toBe(9007199254740991);
    // A decimal that is a whole number is that number (decimals come back from the service as "1.0").
    expect(normScalar('100000000000000000000.0')).toBe('100000000000000000000');
    expect(normNumeric('9007199254740993.0')).toBe(normNumeric('9007199254740993'));
    expect(normNumeric('9007199254740993.')).toBe('9007199254740993');
    expect([normNumeric('.5'), normNumeric('5.'), normNumeric('x')]).toEqual([0.5, 5, undefined]);
    // Still compared by value with a live number of that exact value, and not with a rounded one.
    expect(sameValue(normScalar('100000000000000000000'), normScalar(1e20))).toBe(true);
    expect(sameValue(normScalar('99999999999999999999'), normScalar(1e20))).toBe(false);
  });

  it('compares a decimal by its exact value, not by the nearest double: an edit past 17 digits is an edit (probe NT-1)', () => {
    expect(sameValue(normNumeric('0.1000000000000000000001'), normNumeric('0.1'))).toBe(false);
    expect(normNumeric('0.1000000000000000000001')).toBe('0.1000000000000000000001');
    // One value written two ways is one value, past 2^53 too.
    expect(normNumeric('9007199254740993.50')).toBe(normNumeric('9007199254740993.5'));
    expect([normNumeric('-007.50'), normNumeric('1.50'), normNumeric('-0'), normNumeric('10.0')]).toEqual([-7.5, 1.5, 0, 10]);
    // A small one a double holds exactly is that number, equal to a live one written with an exponent.
    expect(sameValue(normScalar('0.0000001'), normScalar(1e-7))).toBe(true);
  });

  it('leaves non-numeric strings and booleans alone', () => {
    expect(normScalar('1.0 beta')).toBe('1.0 beta');
    expect(normScalar('')).toBe('');
    expect(normScalar(true)).toBe(true);
    expect(normScalar(undefined)).toBeNull();
  });
});

describe('normScalar and leading zeros', () => {
  it('keeps text with a leading zero (a zip code) distinct from the number', () => {
    expect(normScalar('01099')).toBe('01099');
    expect(normScalar('0.5')).toBe(0.5);
    expect(normScalar('12')).toBe(12);
  });
});
