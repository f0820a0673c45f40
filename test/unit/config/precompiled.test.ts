/**
 * The build compiles every schema ahead of time (scripts/compile-validators.mjs → dist/validators/);
 * run from src/ without a current build, docket compiles them on first use. Both must judge a
 * document alike, or what a user sees from `docket validate` would differ from a run of the sources.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, SCHEMA_BASE, SUBSCHEMAS, schemaFileNames, schemasDir, subschemaExport, validatorModule, validatorNames, variantName } from '../../../src/config/ajv-setup.js';
import { TEMPLATE_TYPES } from '../../../src/kinds/support/template-params.js';
import { codeCacheOf, loadValidatorModule, openedCodeCache, runModuleFile } from '../../../src/config/validator-module.js';

const ROOT = path.join(schemasDir(), '..');
const DIST = path.join(ROOT, 'dist', 'validators');
const require = createRequire(import.meta.url);
const runtime = createAjv();

/** Every document of the bundled example, by its kind. */
function exampleDocuments(): Map<string, unknown[]> {
  const byKind = new Map<string, unknown[]>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.')) walk(file);
      else if (/\.ya?ml$/.test(entry.name)) {
        for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
          const value = (doc as { toJS(): unknown }).toJS() as Record<string, unknown> | null;
          const key = typeof value?.kind === 'string' ? value.kind : entry.name === 'docket.yaml' ? 'docket' : 'data';
          byKind.set(key, [...(byKind.get(key) ?? []), value]);
        }
      }
    }
  };
  walk(path.join(ROOT, 'examples', 'acme-legal'));
  return byKind;
}

let sampled: unknown[] | undefined;

/** Valid documents and, from each, broken ones (read once: every test judges them). */
function samples(): unknown[] {
  return (sampled ??= readSamples());
}

/** The example's documents, then each broken: a wrong type everywhere, an unknown key, nothing. */
function readSamples(): unknown[] {
  const docs = [...exampleDocuments().values()].flat();
  const broken = docs.flatMap((d) => {
    if (d === null || typeof d !== 'object') return [];
    const o = d as Record<string, unknown>;
    return [
      { ...o, bogus_key: 1 },
      Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === 'kind' ? v : typeof v === 'string' ? 42 : 'text'])),
      { kind: o.kind },
    ];
  });
  // Errors gathered from nested validators, item after item (the build appends them in place: probe TC-3).
  const badRules = { kind: 'Playbook', name: 'P', rules: [{ name: 'A', actions: 'ACCEPT', reviewer: 'bad' }, { name: 'B', actions: 1, reviewer: 'worse' }, { name: 'C', bogus: true }] };
  return [...docs, ...broken, badRules, {}, null, 'text', { kind: 'Template', name: 'x', type: 'CSA', parameters: { term: 'long', nope: 1 } }];
}

const shape = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => [e.instancePath, e.schemaPath, e.keyword, JSON.stringify(e.params)]);

const copies: string[] = [];
afterEach(() => {
  for (const file of copies.splice(0)) rmSync(file, { force: true });
});

describe('precompiled validators (dist/validators, written by npm run build)', () => {
  it('exist for every schema file, and for each template type', () => {
    expect(validatorNames()).toEqual(expect.arrayContaining([...schemaFileNames(), 'template.schema.json@NDA', 'template.schema.json@Software%20License']));
    for (const name of validatorNames()) expect(existsSync(path.join(DIST, validatorModule(name))), name).toBe(true);
  });

  it('come with a V8 code cache that this Node.js accepts, and load as require would load them', () => {
    for (const name of validatorNames()) {
      const file = path.join(DIST, validatorModule(name));
      expect(existsSync(codeCacheOf(file)), name).toBe(true);
      const v8Bytes = openedCodeCache(readFileSync(file, 'utf8'), readFileSync(codeCacheOf(file)));
      expect(v8Bytes, name).toBeDefined();
      const { script, exports } = runModuleFile(file, v8Bytes);
      expect(script.cachedDataRejected, name).toBe(false);
      expect(Object.keys(exports).sort(), name).toEqual(Object.keys(require(file) as object).sort());
    }
  });

  it('come with a code cache that V8 takes in a run of bin/docket.js, under the V8 flags it sets', () => {
    // V8 refuses a cache made under other flags, silently: every run would compile the validators again.
    const run = spawnSync(process.execPath, ['--require', path.join(ROOT, 'test', 'helpers', 'code-cache-probe.cjs'), path.join(ROOT, 'bin', 'docket.js'), 'validate', '-C', path.join(ROOT, 'examples', 'acme-legal')], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    const handed = JSON.parse(/^CODE-CACHE (.*)$/m.exec(run.stderr)![1]!) as { file: string; rejected: boolean }[];
    expect(handed.length).toBeGreaterThan(0);
    expect(handed.filter((h) => h.rejected)).toEqual([]);
  });

  it('load from their source when the code cache is not V8\'s to take (another Node.js, a damaged file)', () => {
    const file = path.join(DIST, validatorModule('playbook.schema.json'));
    // A text of its own: V8 compiles a text it compiled before in this process from memory,
    // and then never looks at the cache given (this worker may have loaded the validator already).
    const source = `${readFileSync(file, 'latin1')}\n// ${process.pid} ${performance.now()}`;
    const { script, exports } = runModuleFile(file, Buffer.from('not a code cache'), source);
    expect(script.cachedDataRejected).toBe(true);
    expect((exports.validate as ValidateFunction)({ kind: 'Playbook', name: 'P' })).toBe(true);
  });

  it('never hand V8 a cache that is damaged past its header or was made from another text of the same length', () => {
    // V8 checks neither: a damaged byte aborts the process, a same-length edit runs the old code.
    // Beside the others, where its require() of ajv's runtime resolves.
    const file = path.join(DIST, `copy-${process.pid}.cjs`);
    copies.push(file, codeCacheOf(file));
    copyFileSync(path.join(DIST, validatorModule('playbook.schema.json')), file);
    const sealed = readFileSync(codeCacheOf(path.join(DIST, validatorModule('playbook.schema.json'))));
    const damaged = Buffer.from(sealed);
    damaged[64 + 24]! ^= 0xff;
    writeFileSync(codeCacheOf(file), damaged);
    expect(openedCodeCache(readFileSync(file, 'utf8'), damaged)).toBeUndefined();
    expect((loadValidatorModule(file).validate as ValidateFunction)({ kind: 'Playbook', name: 'P' })).toBe(true);

    const source = readFileSync(file, 'utf8');
    const edited = source.replace('if("Playbook"!==data0)', 'if("Playbooc"!==data0)');
    expect(edited.length).toBe(source.length);
    expect(edited).not.toBe(source);
    writeFileSync(file, edited);
    writeFileSync(codeCacheOf(file), sealed);
    expect(openedCodeCache(edited, sealed)).toBeUndefined();
    // The edited text is what runs: it wants the other kind.
    const validate = loadValidatorModule(file).validate as ValidateFunction;
    expect(validate({ kind: 'Playbook', name: 'P' })).toBe(false);
    expect(validate({ kind: 'Playbooc', name: 'P' })).toBe(true);
    // A file too short to hold its digests is not a cache either.
    expect(openedCodeCache(source, sealed.subarray(0, 64))).toBeUndefined();
  });

  it.each(TEMPLATE_TYPES.map((t) => t.type))('the %s template validator judges every template of that type as the whole template schema does', (type) => {
    const load = (name: string) => loadValidatorModule(path.join(DIST, validatorModule(name))).validate as ValidateFunction;
    const [variant, whole] = [load(variantName('template.schema.json', type)), load('template.schema.json')];
    const templates = samples().filter((d): d is Record<string, unknown> => (d as { kind?: unknown } | null)?.kind === 'Template');
    const parameters = [{}, { bogus_key: 1 }, { term: 'long', effective_date_type: 'date', governing_law_country: 7 }, ...templates.map((t) => t.parameters)];
    let invalid = 0;
    for (const params of parameters) {
      for (const doc of [{ kind: 'Template', name: 'T', type, parameters: params }, { kind: 'Template', name: 7, type, parameters: params, extra: true }]) {
        const a = variant(doc);
        expect(a).toBe(whole(doc));
        expect(shape(variant.errors)).toEqual(shape(whole.errors));
        if (!a) invalid++;
      }
    }
    expect(invalid).toBeGreaterThan(parameters.length);
  });

  it.each(schemaFileNames())('%s judges every sample as the validator compiled at run time does', (name) => {
    // Loaded as a run loads it: through its code cache.
    const module = loadValidatorModule(path.join(DIST, validatorModule(name))) as Record<string, ValidateFunction>;
    const pairs: [ValidateFunction, ValidateFunction][] = [[module.validate!, runtime.getSchema(`${SCHEMA_BASE}${name}`)!]];
    for (const fragment of SUBSCHEMAS[name] ?? []) pairs.push([module[subschemaExport(fragment)]!, runtime.getSchema(`${SCHEMA_BASE}${name}${fragment}`)!]);
    let invalid = 0;
    for (const [pre, run] of pairs) {
      for (const sample of samples()) {
        const a = pre(sample);
        const b = run(sample);
        expect(a).toBe(b);
        expect(shape(pre.errors)).toEqual(shape(run.errors));
        if (!a) invalid++;
      }
    }
    // The samples really exercise the error paths.
    expect(invalid).toBeGreaterThan(0);
  });
});
