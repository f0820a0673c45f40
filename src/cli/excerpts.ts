/** The source lines a terminal shows under a diagnostic, with what output hides hidden before its caret is placed. */
import { sourceLines, type SourceLine } from '../config/source-lines.js';
import type { Io } from './io.js';
import { keyValues, redact } from './redact.js';

/** For renderDiagnosticsText: the configuration's lines on a terminal (none elsewhere), its API keys hidden as output hides them. */
export function terminalExcerpts(io: Io, root: string | undefined): { source?: SourceLine; hide?: (text: string) => string } {
  if (!io.stderrTTY || root === undefined) return {};
  const keys = keyValues(io.env);
  return { source: sourceLines(root), ...(keys.length > 0 ? { hide: (text: string) => redact(text, keys) } : {}) };
}
