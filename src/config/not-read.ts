/**
 * Whether docket never reads a file or folder of this name as configuration, nor as data: names
 * starting with `.` hold local scratch and other tools' files (`.docket/`, `.git/` with a CI
 * checkout's token, an editor's `.#x.yaml` lock), and node_modules holds other people's YAML.
 */
export function isNotReadName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** The folder or file of a root-relative path (`/` separators) that docket does not read, if any. */
export function skippedPartOf(rel: string): string | undefined {
  return rel.split('/').find(isNotReadName);
}
