/** The plan step of plan and apply: the engine's planProject with this session's services and settings. */
import { planProject } from '../engine/project.js';
import type { Plan } from '../engine/types.js';
import { ConfigError } from '../errors.js';
import { VERSION } from '../version.js';
import type { Session } from './session.js';

export async function planInSession(s: Session, targets: readonly string[], retryUncertain = false): Promise<Plan> {
  const { workspace: w, connection } = s;
  const p = w.config.project;
  const started = performance.now();
  s.progress.start('Reading live state');
  try {
    const result = await planProject({
      desired: w.desired,
      services: connection.services,
      lock: s.lock,
      clock: () => new Date(),
      prune: s.prune,
      targets,
      retryUncertain,
      safety: p.safety,
      concurrency: s.concurrency,
      sync: () => s.sync(),
      meta: {
        configDigest: w.digest,
        target: () => connection.target,
        ...(p.environment ? { environment: p.environment } : {}),
        version: VERSION,
        warnings: w.warnings,
      },
    });
    s.logger.debug(`read ${result.live.length} live objects in ${Math.round(performance.now() - started)} ms`);
    if (!result.plan) {
      const targetErrors = result.diagnostics.every((d) => d.code === 'unknown-target');
      throw new ConfigError(result.diagnostics, targetErrors ? 'the targets do not name known resources' : 'the plan could not be made', p.root);
    }
    return result.plan;
  } finally {
    s.progress.stop();
  }
}
