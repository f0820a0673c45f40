/** Request statistics of the service routes, by method and route template (ids never appear). */

export interface EmulatorStats {
  requests: { total: number; by_route: Record<string, number> };
  faults_injected: number;
  rate_limited: number;
}

export class StatsCounter {
  private total = 0;
  private byRoute = new Map<string, number>();
  private faults = 0;
  private limited = 0;

  request(method: string, template: string | undefined): void {
    this.total += 1;
    const key = `${method} ${template ?? '(no route)'}`;
    this.byRoute.set(key, (this.byRoute.get(key) ?? 0) + 1);
  }

  fault(): void {
    this.faults += 1;
  }

  rateLimited(): void {
    this.limited += 1;
  }

  reset(): void {
    this.total = 0;
    this.byRoute.clear();
    this.faults = 0;
    this.limited = 0;
  }

  snapshot(): EmulatorStats {
    const byRoute = Object.fromEntries([...this.byRoute.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return { requests: { total: this.total, by_route: byRoute }, faults_injected: this.faults, rate_limited: this.limited };
  }
}
