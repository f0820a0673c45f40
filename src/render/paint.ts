/**
 * Colour for terminal output. Colour is the caller's decision (`--no-color`, NO_COLOR, a TTY), so
 * it comes in as a flag: kleur's own global `enabled` guess (made from process state at import) is
 * ignored in both directions.
 */
import kleur from 'kleur';

export type Style = 'red' | 'green' | 'yellow' | 'cyan' | 'magenta' | 'bold' | 'dim';

export type Paint = (style: Style, text: string) => string;

export function painter(color: boolean): Paint {
  if (!color) return (_style, text) => text;
  return (style, text) => {
    if (text === '') return text;
    // kleur reads `enabled` at call time; force it for this synchronous call only, then restore.
    const saved = kleur.enabled;
    kleur.enabled = true;
    try {
      return kleur[style](text);
    } finally {
      kleur.enabled = saved;
    }
  };
}
