/**
 * Which run made something on a service, written into the thing itself (a scratch playbook's
 * description, a test agreement's message), so a later run can tell what a crashed run left from
 * what a concurrent run is still using: a dead process on this machine, or a run past its time
 * budget anywhere, is gone; anything else is left alone.
 */
export interface RunIdentity {
  pid: number;
  host: string;
  /** When the run's time budget ends: after this what it made is left over wherever it ran. */
  until: Date;
}

const OWNER = /run of pid (\d+) on (\S+) until (\S+?)\.?(\s|$)/;

/** Whether the text names a run (as `ownerText` writes it), living or not. */
export function namesARun(text: string | null | undefined): boolean {
  return OWNER.test(text ?? '');
}

/** `one run of pid 42 on ci-7 until 2027-01-15T10:30:00.000Z`: what `isLeftover` reads back. */
export function ownerText(run: RunIdentity): string {
  return `one run of pid ${run.pid} on ${run.host} until ${run.until.toISOString()}`;
}

/**
 * Whether the text names a run that is over. Text that names no run is not a run's: a playbook
 * someone named `docket-test: …` in the app, or a draft they wrote so, is theirs, and stays.
 */
export function isLeftover(text: string | null, me: RunIdentity, now: Date, alive: (pid: number) => boolean): boolean {
  const m = OWNER.exec(text ?? '');
  if (!m) return false;
  const until = new Date(m[3]!);
  if (Number.isNaN(until.getTime()) || until.getTime() < now.getTime()) return true;
  return m[2] === me.host && Number(m[1]) !== me.pid && !alive(Number(m[1]));
}
