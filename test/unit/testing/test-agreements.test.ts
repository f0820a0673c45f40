/** The `agreement` object a template test case sends. */
import { describe, expect, it } from 'vitest';
import { testAgreementMessage, testAgreementObject } from '../../../src/testing/test-agreements.js';

const RUN = { pid: 100, host: 'laptop', until: new Date('2027-01-15T10:30:00.000Z') };

describe('testAgreementObject', () => {
  it('marks a standard template agreement with the run, and no value unsets the test flag', () => {
    expect(testAgreementObject({ recipient_name: 'Globex', test_agreement: false }, false, RUN)).toEqual({ message: testAgreementMessage(RUN), recipient_name: 'Globex', test_agreement: true });
  });

  it('keeps a message the case sets', () => {
    expect(testAgreementObject({ message: 'Hello' }, false, RUN)).toEqual({ message: 'Hello', test_agreement: true });
  });

  it('puts a custom template’s values in custom_field_values, beside the mark', () => {
    expect(testAgreementObject({ message: 'a field of the template' }, true, RUN)).toEqual({ custom_field_values: { message: 'a field of the template' }, message: testAgreementMessage(RUN), test_agreement: true });
  });
});
