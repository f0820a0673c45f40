/**
 * Loaded into every docket child with `node --import`: when the process exits, writes its own CPU
 * time and peak resident memory to the file named by DOCKET_BENCH_USAGE_FILE. The child measures
 * itself because Node's child_process does not expose the rusage of a child; 'exit' runs also
 * when docket calls process.exit(). It imports only node:fs, so it adds next to nothing to start-up.
 */
import { writeFileSync } from 'node:fs';

const target = process.env.DOCKET_BENCH_USAGE_FILE;
if (target) {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    // resourceUsage().maxRSS is in kilobytes.
    const usage = { cpu_user_us: cpu.user, cpu_system_us: cpu.system, max_rss_kb: process.resourceUsage().maxRSS };
    writeFileSync(target, JSON.stringify(usage));
  });
}
