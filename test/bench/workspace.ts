/**
 * A configuration directory and the emulator it is applied to, with the untimed steps rows use to
 * reach a known state: rewrite the files (original or edited), start the live side over, bring it
 * in line with the files. Untimed docket runs happen at latency 0 so preparation stays short.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runDocket } from './child.js';
import type { EmulatorProcess } from './emulator-process.js';
import { makeTempDir, writeFixture } from './fixture.js';
import { childEnv, failure } from './scenario.js';
import type { FixtureShape } from './shapes.js';

export class Workspace {
  /** Whether the live side matches the original files. */
  synced = false;

  private constructor(
    readonly shape: FixtureShape,
    readonly root: string,
    readonly dir: string,
    readonly emulator: EmulatorProcess | undefined,
    private readonly removeRoot: () => Promise<void>,
  ) {}

  static async create(shape: FixtureShape, emulator: EmulatorProcess | undefined): Promise<Workspace> {
    const temp = await makeTempDir();
    const dir = join(temp.dir, 'config');
    await mkdir(dir);
    const ws = new Workspace(shape, temp.dir, dir, emulator, temp.remove);
    await ws.writeFiles(false);
    return ws;
  }

  /** Where `plan --out` writes, outside the configuration. */
  get planFile(): string {
    return join(this.root, 'plan.json');
  }

  writeFiles(edited: boolean): Promise<void> {
    return writeFixture(this.dir, this.shape, edited);
  }

  /** An empty organization: the emulator's seed, and no lock file naming attachments it no longer has. */
  async startOver(): Promise<void> {
    await rm(join(this.dir, 'docket.lock.json'), { force: true });
    await this.service().reset();
    this.synced = false;
  }

  /** Applies the files as they are, untimed. */
  async applyUntimed(): Promise<void> {
    await this.untimed(['apply', '-C', this.dir, '--auto-approve'], 'the untimed apply');
  }

  /** Saves a plan of the files as they are to `planFile`, untimed. */
  async savePlan(): Promise<void> {
    await this.untimed(['plan', '-C', this.dir, '--out', this.planFile], 'the untimed plan --out');
  }

  /** Live state = original files: from an empty organization when needed. */
  async ensureSynced(): Promise<void> {
    if (this.synced) return;
    await this.writeFiles(false);
    await this.startOver();
    await this.applyUntimed();
    this.synced = true;
  }

  /** After an edit was applied: back to the original files and live state, then the edited files again. */
  async revertEdit(): Promise<void> {
    await this.writeFiles(false);
    await this.applyUntimed();
    await this.writeFiles(true);
  }

  async remove(): Promise<void> {
    await this.removeRoot();
  }

  private service(): EmulatorProcess {
    if (!this.emulator) throw new Error('this workspace has no emulator');
    return this.emulator;
  }

  private async untimed(args: string[], what: string): Promise<void> {
    const emulator = this.service();
    await emulator.configure({ latency_ms: 0 });
    const run = await runDocket(args, childEnv(emulator));
    if (run.code !== 0) throw failure(what, run);
  }
}
