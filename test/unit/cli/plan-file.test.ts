import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkPlanSeal, checkPlanVersion, readPlanFile, sealPlan } from "../../../src/cli/plan-file.js";
import { planFormat } from "../../../src/cli/plan-format.js";
import type { Plan } from "../../../src/engine/types.js";
import { makeDir, removeMadeDirs } from "../../helpers/tmpdir.js";

afterAll(removeMadeDirs);

/** A plan of one playbook and its rule, as `docket plan --out` saved it. */
const SAVED = {
  format_version: 1,
  docket_version: "0.1.0",
  plan_format: planFormat(),
  created_at: "2026-01-01T00:00:00.000Z",
  target: {
    emulator: false,
    review: {
      url: "http://127.0.0.1:4010/review",
      organization_id: "00000000-0000-4000-8000-000000000001",
      path_style: "nested",
    },
  },
  config_digest:
    "0000000000000000000000000000000000000000000000000000000000000000",
  changes: [
    {
      id: "create:playbook:Dup",
      action: "create",
      kind: "playbook",
      key: "Dup",
      name: "Dup",
      fields: [{ field: "name", before: null, after: "Dup" }],
      desired: { name: "Dup", description: null },
      refs: [],
      dependsOn: [],
      source: { file: "playbooks/p.yaml", line: 1, col: 1 },
      fingerprint: null,
      direction: "only-in-files",
    },
    {
      id: "create:rule:Dup/R",
      action: "create",
      kind: "rule",
      key: "Dup/R",
      name: "R",
      parent: { kind: "playbook", key: "Dup" },
      fields: [
        { field: "name", before: null, after: "R" },
        { field: "actions", before: null, after: "x" },
        { field: "generate_summary", before: null, after: true },
      ],
      desired: {
        name: "R",
        description: null,
        actions: "x",
        internal_notes: null,
        questions: null,
        generate_summary: true,
        reviewer: null,
        generate_summary_stated: false,
      },
      refs: [],
      dependsOn: ["create:playbook:Dup"],
      source: { file: "playbooks/p.yaml", line: 4, col: 5 },
      fingerprint: null,
      direction: "only-in-files",
    },
  ],
  ids: {},
  summary: { create: 2 },
  warnings: [],
  undeclared: [],
};

type Change = (typeof SAVED.changes)[number];

/** Writes a copy of the saved plan with `edit` made, and reads it back. */
async function readEdited(edit: (changes: Change[]) => void): Promise<unknown> {
  const plan = structuredClone(SAVED);
  edit(plan.changes);
  const file = join(await makeDir({}), "plan.json");
  await writeFile(file, JSON.stringify(plan));
  return readPlanFile(file).catch((error: unknown) => (error as Error).message);
}

describe("readPlanFile", () => {
  it("reads a plan as saved", async () => {
    expect(await readEdited(() => {})).toEqual(SAVED);
  });

  it("reads a plan saved with a byte-order mark, as an editor on Windows saves it", async () => {
    const file = join(await makeDir({}), "plan.json");
    await writeFile(file, `\uFEFF${JSON.stringify(SAVED)}`);
    expect(await readPlanFile(file)).toEqual(SAVED);
  });

  it("refuses a change that is in the plan twice: apply created the playbook twice", async () => {
    expect(
      await readEdited((changes) =>
        changes.splice(1, 0, structuredClone(changes[0]!)),
      ),
    ).toMatch(
      /plan\.json is not a valid docket plan file: changes\[1\]: change "create:playbook:Dup" is in the plan twice$/,
    );
  });

  it("refuses a dependency on a change the plan does not hold: apply ignored it", async () => {
    expect(
      await readEdited(
        (changes) => (changes[1]!.dependsOn = ["create:playbook:Gone"]),
      ),
    ).toMatch(
      /plan\.json is not a valid docket plan file: changes\[1\]\.dependsOn: "create:playbook:Gone" is no change of this plan$/,
    );
  });

  it("refuses a sealed plan whose changes reach a service its target does not name: its seal holds no key of it, so anyone could make it (probe CH-1)", () => {
    const env = { DOCKET_API_KEY: "a-key-of-this-run-0123456789" };
    const sealed = structuredClone(SAVED) as unknown as Plan;
    sealPlan(sealed, env);
    expect(() => checkPlanSeal(sealed, "plan.json", env)).not.toThrow();
    // Made for a configuration that declares nothing: no service, and a seal anyone can compute.
    const forged = structuredClone(SAVED) as unknown as Plan;
    forged.target = { emulator: false };
    sealPlan(forged, {});
    expect(() => checkPlanSeal(forged, "plan.json", env)).toThrow(
      'plan.json cannot be applied: it changes playbook "Dup" on the review service, which its target does not name, so its seal holds no key of that service: docket writes no such plan',
    );
    // The organization, of both services, by the service of each field it changes (second read SR101B-6).
    const organization = structuredClone(SAVED) as unknown as Plan;
    organization.changes = [{ ...organization.changes[0]!, id: "update:organization:organization", action: "update", kind: "organization", key: "organization", fields: [{ field: "agreements.name", before: "A", after: "B" }] }];
    sealPlan(organization, env);
    expect(() => checkPlanSeal(organization, "plan.json", env)).toThrow("it changes organization \"organization\" on the agreements service, which its target does not name");
  });

  it("says a plan of another docket version that this one cannot read is that, not an edited file (probe CH-2)", async () => {
    const plan = structuredClone(SAVED) as unknown as { docket_version: string; changes: { kind: string }[] };
    plan.docket_version = "0.2.0";
    plan.changes[0]!.kind = "label";
    const file = join(await makeDir({}), "plan.json");
    await writeFile(file, JSON.stringify(plan));
    const error = (await readPlanFile(file).catch((e: unknown) => e)) as { code: string; message: string; hint: string };
    expect([error.code, error.hint]).toEqual(["plan-version", expect.stringContaining("apply it with the docket that made it")]);
    expect(error.message).toMatch(/plan\.json was made by docket 0\.2\.0, and this is docket \S+, which cannot read it \(changes\[0\]\.kind: /);
  });

  it("refuses to apply a plan another build of this version made, whose plans record other things: this build's checks of what it lacks were skipped (probe HF-1)", async () => {
    const dir = await makeDir({});
    for (const format of ["0123456789abcdef", undefined]) {
      const plan = structuredClone(SAVED) as Record<string, unknown>;
      if (format === undefined) delete plan.plan_format;
      else plan.plan_format = format;
      const file = join(dir, "plan.json");
      await writeFile(file, JSON.stringify(plan));
      // Read (`docket show` prints it, with a note), but not applied.
      const read = await readPlanFile(file);
      const error = (() => {
        try {
          checkPlanVersion(read, "plan.json", "docket plan --out plan.json");
        } catch (e) {
          return e as { code: string; message: string; hint: string };
        }
        return undefined;
      })();
      expect([error?.code, error?.message, error?.hint]).toEqual([
        "plan-version",
        `plan.json was made by another build of docket 0.1.0, whose saved plans record other things than this build's (${format === undefined ? "no plan format" : `plan format ${format}`}; this build's is ${planFormat()}), so this build may check before it applies what the plan does not record`,
        "make the plan again with this docket: docket plan --out plan.json",
      ]);
    }
    expect(planFormat()).toMatch(/^[0-9a-f]{16}$/);
    expect(() => checkPlanVersion(SAVED as unknown as Plan, "plan.json")).not.toThrow();
    // One this build cannot read (a field since taken out of the schema) is said as another build's, not as edited (second read SR106-2).
    const older: Record<string, unknown> = { ...(structuredClone(SAVED) as Record<string, unknown>), old_thing: 1 };
    delete older.plan_format;
    const file = join(dir, "older.json");
    await writeFile(file, JSON.stringify(older));
    const error = (await readPlanFile(file).catch((e: unknown) => e)) as { code: string; message: string; hint: string };
    expect([error.code, error.message]).toEqual(["plan-version", expect.stringMatching(/^.*older\.json was made by another build of docket 0\.1\.0, whose saved plans record other things than this build's, and this build cannot read it \(.*old_thing/)]);
    // The same edit to a plan of this build's format is an edited file.
    await writeFile(file, JSON.stringify({ ...(structuredClone(SAVED) as Record<string, unknown>), old_thing: 1 }));
    expect(((await readPlanFile(file).catch((e: unknown) => e)) as { code: string }).code).toBe("invalid-plan-file");
  });
});
