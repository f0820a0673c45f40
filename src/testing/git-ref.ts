/**
 * `--compare-to REF`: the playbooks as the configuration declared them at a git ref. The
 * configuration directory's files at that ref are written to a temporary directory (from
 * `git ls-tree` and `git cat-file --batch`, so nothing in the checkout changes) and loaded like
 * any configuration.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ConfigError, DocketError } from '../errors.js';
import { loadWorkspace } from '../engine/workspace.js';
import { shellPath } from '../util/shell-word.js';
import { declaredPlaybooks, type PlaybookSubject } from '../kinds/support/test-subjects.js';

const run = promisify(execFile);

async function git(cwd: string, args: string[]): Promise<string> {
  try {
    return (await run('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' })).stdout;
  } catch (error) {
    // No git at all (an image without it): execFile's stderr is empty, its error says ENOENT (probe CA-3).
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new DocketError('git', '--compare-to: git was not found (ENOENT): it reads the configuration at the ref', 'install git where docket test runs (node:20-alpine has none: `apk add git`), or run without --compare-to');
    const said = String((error as { stderr?: unknown }).stderr ?? '').trim() || (error as Error).message;
    // A repository another user owns (a container's CI job): git's own fix, not a fetch (probe FL-6).
    const hint = /dubious ownership/.test(said)
      ? `git refuses a repository another user owns: mark it safe, \`git config --global --add safe.directory ${shellPath(cwd)}\`, or run docket as the user who owns it`
      : 'run docket test in a git checkout that has the ref (in CI, fetch the base branch: actions/checkout with fetch-depth: 0)';
    throw new DocketError('git', `--compare-to: git ${args[0]} failed: ${said.trim().split('\n')[0]}`, hint);
  }
}

/** The files of the configuration folder at a ref, by path relative to it; or why it is no folder there. */
type RefFiles = { files: Map<string, Buffer> } | { notFolder: string };

/** Links followed to the configuration folder itself (a link to a link…) before it is said unreadable. */
const MAX_FOLDER_LINKS = 8;

/**
 * Every file of `prefix` at `ref`, by path relative to `prefix`, as a checkout has them: a symbolic
 * link inside the repository read as what it leads to (one leading out of it, or nowhere, left
 * out), a submodule left out, and the folder itself followed when it was a link there (probes
 * FL-1, FL-2).
 */
async function filesAt(top: string, ref: string, prefix: string, links = 0): Promise<RefFiles> {
  const entries = (await git(top, ['ls-tree', '-r', '-z', ref, '--', prefix === '' ? '.' : prefix]))
    .split('\0')
    .filter((e) => e !== '')
    .map((e) => {
      const tab = e.indexOf('\t');
      const [mode = '', type = ''] = e.slice(0, tab).split(' ');
      return { mode, type, path: e.slice(tab + 1) };
    });
  const self = prefix === '' ? undefined : entries.find((e) => e.path === prefix);
  if (self) {
    if (self.mode !== '120000') return { notFolder: `${prefix} is a file there, not a folder` };
    const target = (await readBlobs(top, [`${ref}:${prefix}`], false))[0];
    const to = target === undefined ? undefined : posix.normalize(posix.join(posix.dirname(prefix), target.toString('utf8')));
    if (to === undefined || to === '..' || to.startsWith('../') || posix.isAbsolute(to) || links >= MAX_FOLDER_LINKS) return { notFolder: `${prefix} is a symbolic link there that leads out of the repository` };
    return filesAt(top, ref, to === '.' ? '' : to, links + 1);
  }
  // Blobs only: a submodule (a commit) has no content here.
  const files = entries.filter((e) => e.type === 'blob').map((e) => e.path);
  const out = new Map<string, Buffer>();
  const read = await readBlobs(top, files.map((f) => `${ref}:${f}`), true);
  files.forEach((file, i) => {
    const bytes = read[i];
    if (bytes !== undefined) out.set(prefix === '' ? file : file.slice(prefix.length + 1), bytes);
  });
  return { files: out };
}

/**
 * The content of each `rev:path` (undefined for one that is no blob: missing, a folder, a link
 * that leads out of the repository or nowhere), in one `git cat-file --batch`; with
 * `followLinks`, a link inside the repository is read as the file it leads to.
 */
async function readBlobs(top: string, names: readonly string[], followLinks: boolean): Promise<(Buffer | undefined)[]> {
  if (names.length === 0) return [];
  const child = spawn('git', ['cat-file', '--batch', ...(followLinks ? ['--follow-symlinks'] : [])], { cwd: top, stdio: ['pipe', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  const exited = new Promise<number>((res, rej) => {
    child.on('error', rej);
    child.on('close', (code) => res(code ?? 1));
  });
  child.stdin.end(names.map((n) => `${n}\n`).join(''));
  if ((await exited) !== 0) throw new DocketError('git', `--compare-to: git cat-file could not read ${names[0]!.slice(0, names[0]!.indexOf(':'))}`);
  const all = Buffer.concat(chunks);
  const out: (Buffer | undefined)[] = [];
  let at = 0;
  for (let i = 0; i < names.length && at < all.length; i++) {
    const eol = all.indexOf(0x0a, at);
    const header = all.subarray(at, eol).toString('utf8').split(' ');
    // `<sha> missing`: no content follows. `symlink|dangling|loop|notdir <size>`: that many bytes follow. `<sha> <type> <size>`: the object.
    if (header[1] === 'missing') {
      out.push(undefined);
      at = eol + 1;
      continue;
    }
    const object = header.length >= 3;
    const size = Number(object ? header[2] : header[1]);
    out.push(object && header[1] === 'blob' ? all.subarray(eol + 1, eol + 1 + size) : undefined);
    at = eol + 1 + size + 1;
  }
  return out;
}

export interface RefOptions {
  processEnv: Record<string, string | undefined>;
  env?: string;
  emulator?: boolean;
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
  const found = await filesAt(top, ref, prefix);
  if ('notFolder' in found) return { playbooks: new Map(), unloadable: `the configuration folder cannot be read at ${ref}: ${found.notFolder}` };
  const files = found.files;
  // A configuration added since (or a directory git does not track): every playbook is new (probe SJ-2).
  if (files.size === 0) return { playbooks: new Map(), absent: true };
  const scratch = await mkdtemp(join(tmpdir(), 'docket-compare-'));
  try {
    for (const [file, bytes] of files) {
      await mkdir(dirname(join(scratch, file)), { recursive: true });
      await writeFile(join(scratch, file), bytes);
    }
    try {
      // Read as this run reads today's: with --emulator, service URLs are not the emulator's concern (probe FL-3).
      const workspace = await loadWorkspace({ dir: scratch, processEnv: options.processEnv, ...(options.emulator ? { emulator: true } : {}), ...(options.env ? { env: options.env } : {}) });
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
