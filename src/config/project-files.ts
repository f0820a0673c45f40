/** The names docket.yaml goes by: the one file a configuration directory is recognised by. */
export const PROJECT_FILES = ['docket.yaml', 'docket.yml'] as const;

/** Whether a root-relative path is the configuration's own docket.yaml (or docket.yml). */
export function isProjectFile(file: string): boolean {
  return (PROJECT_FILES as readonly string[]).includes(file);
}
