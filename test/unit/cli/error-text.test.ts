/** An error printed on stderr, where a CI runner also reads workflow commands. */
import { describe, expect, it } from 'vitest';
import { errorText } from '../../../src/cli/error-text.js';

describe('errorText', () => {
  it('keeps the lines a message lists, and breaks up any that a runner would take for a workflow command', () => {
    const reasons = 'the saved plan is stale:\n  - rule "A" changed live\n  - rule "B" was removed';
    expect(errorText(reasons)).toBe(reasons);
    expect(errorText('x\n::error file=a.yaml::injected\n  ::stop-commands::tok\n\u00a0\u3000::warning::y')).toBe('x\n: :error file=a.yaml::injected\n  : :stop-commands::tok\n\u00a0\u3000: :warning::y');
    expect(errorText('name ##[error]injected')).toBe('name # #[error]injected');
    // `::` inside a line, as a URL's port or an IPv6 address writes it, is no command.
    expect(errorText('at http://[::1]:4010/review')).toBe('at http://[::1]:4010/review');
  });

  it('hides a URL password and removes escape sequences, as every error line does', () => {
    expect(errorText('GET https://bob:hunter2@api.example/v1?k=1 \u001b[31mfailed')).toBe('GET https://***@api.example/v1?… failed');
  });
});
