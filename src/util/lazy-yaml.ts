/**
 * The full `yaml` library, loaded the first time something needs it: most runs read every file
 * and every live definition with js-yaml (faster, and already loaded) and never need it.
 * (`yaml` is CommonJS for Node, so a synchronous require works.)
 */
import { createRequire } from 'node:module';

export type YamlLibrary = typeof import('yaml');
let library: YamlLibrary | undefined;

export function yaml(): YamlLibrary {
  return (library ??= createRequire(import.meta.url)('yaml') as YamlLibrary);
}
