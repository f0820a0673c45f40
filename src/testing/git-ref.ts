/**
 * `--compare-to REF`: the playbooks as the configuration declared them at a git ref. The
 * configuration directory's files at that ref are written to a temporary directory (from
 * `git ls-tree` and `git cat-file --batch`, so nothing in the checkout changes) and loaded like
 * any configuration.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ConfigError, DocketError } from '../errors.js';
import { loadWorkspace } from '../engine/workspace.js';
import { declaredPlaybooks, type PlaybookSubject } from '../kinds/support/test-subjects.js';

const run = promisify(execFile);

async function git(cwd: string, args: string[]): Promise<string> {
  try {
    return (await run('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' })).stdout;
  } catch (error) {
    // No git at all (an image without it): execFile's stderr is empty, its error says ENOENT (probe CA-3).
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new DocketError('git', '--compare-to: git was not found (ENOENT): it reads the configuration at the ref', 'install git where docket test runs (node:20-alpine has none: `apk add git`), or run without --compare-to');
    const said = String((error as { stderr?: unknown }).stderr ?? '').trim() || (error as Error).message;
    throw new DocketError('git', `--compare-to: git ${args[0]} failed: ${said.trim().split('\n')[0]}`, 'run docket test in a git checkout that has the ref (in CI, fetch the base branch: actions/checkout with fetch-depth: 0)');
  }
}

/** Every file of `prefix` at `ref`, by path relative to `prefix`. */
async function filesAt(top: string, ref: string, prefix: string): Promise<Map<string, Buffer>> {
  const listed = (await git(top, ['ls-tree', '-r', '-z', '--name-only', ref, '--', prefix === '' ? '.' : prefix])).split('\0').filter((f) => f !== '');
  const out = new Map<string, Buffer>();
  if (listed.length === 0) return out;
  const child = spawn('git', ['cat-file', '--batch'], { cwd: top, stdio: ['pipe', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  const exited = new Promise<number>((res, rej) => {
    child.on('error', rej);
    child.on('close', (code) => res(code ?? 1));
  });
  child.stdin.end(listed.map((f) => `${ref}:${f}\n`).join(''));
  if ((await exited) !== 0) throw new DocketError('git', `--compare-to: git cat-file could not read ${ref}`);
  const all = Buffer.concat(chunks);
  let at = 0;
  for (const file of listed) {
    const eol = all.indexOf(0x0a, at);
    const header = all.subarray(at, eol).toString('utf8').split(' ');
    const size = Number(header[2]);
    out.set(prefix === '' ? file : file.slice(prefix.length + 1), all.subarray(eol + 1, eol + 1 + size));
    at = eol + 1 + size + 1;
  }
  return out;
}

export interface RefOptions {
  processEnv: Record<string, string | undefined>;
  env?: string;
}

/**
 * The playbooks declared at `ref` (none when the directory did not exist there), or why the
 * configuration there does not load: each suite then says it has nothing to compare with, and its
 * cases still run (a pull request that fixes a broken base, probe NL-1).
 */
export async function playbooksAtRef(root: string, ref: string, options: RefOptions): Promise<{ playbooks: Map<string, PlaybookSubject>; unloadable?: string; absent?: true }> {
  const dir = resolve(root);
  const top = (await git(dir, ['rev-parse', '--show-toplevel'])).trim();
  // --quiet: git says nothing about a ref it does not know, so the message is docket's.
  await git(dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => {
    throw new DocketError('git', `--compare-to: ${JSON.stringify(ref)} names no commit of this repository`, 'name a branch, tag or commit that exists here (in CI, fetch the base branch: actions/checkout with fetch-depth: 0)');
  });
  // Where git's own working directory is in the repository: `dir` as the process reached it, past
  // any symbolic link to it (a link outside the repository, or `/tmp` → `/private/tmp`), which a
  // path made relative to the top would not be (probe QY-1).
  // Only the line end goes: a folder's name may start or end with a space (second read SR86-6).
  const prefix = (await git(dir, ['rev-parse', '--show-prefix'])).replace(/\r?\n$/, '').replace(/\/$/, '');
  const files = await filesAt(top, ref, prefix);
  // A configuration added since (or a directory git does not track): every playbook is new (probe SJ-2).
  if (files.size === 0) return { playbooks: new Map(), absent: true };
  const scratch = await mkdtemp(join(tmpdir(), 'docket-compare-'));
  try {
    for (const [file, bytes] of files) {
      await mkdir(dirname(join(scratch, file)), { recursive: true });
      await writeFile(join(scratch, file), bytes);
    }
    try {
      const workspace = await loadWorkspace({ dir: scratch, processEnv: options.processEnv, ...(options.env ? { env: options.env } : {}) });
      return { playbooks: declaredPlaybooks(workspace.desired) };
    } catch (error) {
      if (error instanceof DocketError) {
        // The files are a scratch copy the printed diagnostics could not show: the first problem is told here.
        const first = error instanceof ConfigError ? error.diagnostics.find((d) => d.severity === 'error') : undefined;
        const more = error instanceof ConfigError ? error.diagnostics.filter((d) => d.severity === 'error').length - 1 : 0;
        const where = first ? `: ${first.file ? `${first.file}:${first.line}:${first.col} ` : ''}${first.code} ${first.message}${more > 0 ? ` (and ${more} more)` : ''}` : '';
        return { playbooks: new Map(), unloadable: `${error.message}${where}` };
      }
      throw error;
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
