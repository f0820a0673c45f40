/**
 * An error the service showed a docket.yaml setting to be wrong by (an organization id the key
 * does not see, a route style the service does not have), said at the setting's file:line when
 * the file writes it: the environment's value (DOCKET_ORGANIZATION_ID) wins over the file's, and
 * then the file is not where to look.
 */
import { ENV_OVERRIDES } from '../config/project.js';
import { projectValuePos, writtenPointer, type ProjectConfig } from '../config/types.js';
import { ConfigError, DocketError } from '../errors.js';

export function atSetting(error: unknown, project: ProjectConfig, env: Readonly<Record<string, string | undefined>>): unknown {
  if (!(error instanceof DocketError) || error instanceof ConfigError || error.setting === undefined) return error;
  const pointer = error.setting;
  const fromEnv = ENV_OVERRIDES.find((o) => `/${o.section}/${o.key}` === pointer);
  // As the loader reads it: a variable of spaces is unset.
  if (fromEnv && (env[fromEnv.variable] ?? '').trim() !== '') {
    // The value is the variable's: the message names it, not only the setting it stands for (probe JE-3).
    const setting = `${fromEnv.section}.${fromEnv.key} `;
    if (error.message.startsWith(setting)) error.message = `${setting.trimEnd()} (from ${fromEnv.variable}) ${error.message.slice(setting.length)}`;
    // Worded otherwise (the nested routes' "the key does not see organization …", third read TR70-5): said after it.
    else error.message = `${error.message} (\`${setting.trimEnd()}\` from ${fromEnv.variable})`;
    return error;
  }
  if (writtenPointer(project, pointer) === undefined) return error;
  const at = projectValuePos(project, pointer);
  // A value a variable filled in is changed where this run takes the variable from, not where the setting is written (probe DE-4).
  const filled = project.filledFrom?.[pointer];
  const hint = filled === undefined ? error.hint : error.hint ? `${filled}; ${error.hint}` : filled;
  return new ConfigError([{ severity: 'error', code: error.code, message: error.message, ...(hint ? { hint } : {}), ...at }], undefined, project.root);
}
