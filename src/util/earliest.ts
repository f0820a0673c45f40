/**
 * Among live copies of one identity (two applies created it at the same time), the one every run
 * picks: the earliest `created_at` (missing or unreadable counts as latest), then the smaller id.
 * A create found by reading and the duplicate check after it must pick alike, or a run puts the
 * object's dependents (a playbook's rules) into the copy the check then sets aside.
 */
export function earliestMade<T extends { id: string }>(items: Iterable<T>, createdAt: (item: T) => string | undefined): T | undefined {
  let best: T | undefined;
  let bestTime = Number.POSITIVE_INFINITY;
  for (const item of items) {
    const time = timeOf(createdAt(item));
    if (!best || time < bestTime || (time === bestTime && item.id < best.id)) {
      best = item;
      bestTime = time;
    }
  }
  return best;
}

function timeOf(iso: string | undefined): number {
  const time = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time;
}
