/** `docket emulator`: the local emulator of both services, in the foreground. */
import { Command, InvalidArgumentError } from 'commander';
import { withCommon } from '../options.js';
import { DEFAULT_ORGANIZATION_ID, EMULATOR_API_KEY, defaultSeed, startEmulator } from '../../emulator/server.js';
import type { Io } from '../io.js';
import { EMULATOR_EXAMPLE_USERS } from '../connect.js';

interface EmulatorOptions {
  host: string;
  port: number;
  state?: string;
  latency?: number;
  faultRate?: number;
  rateLimit?: number;
}

const number = (min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new InvalidArgumentError(`must be a number from ${min} to ${max}`);
  return n;
};

export function emulatorCommand(io: Io, waitForStop: () => Promise<void>): Command {
  return withCommon(new Command('emulator'), { dir: false, env: false })
    .description('run the local emulator of the review and agreements services')
    .option('--host <HOST>', 'address to listen on', '127.0.0.1')
    .option('--port <PORT>', 'port to listen on', number(0, 65535), 4010)
    .option('--state <FILE>', 'keep state in this JSON file (written atomically after every write)')
    .option('--latency <MS>', 'added latency per request', number(0, 60_000))
    .option('--fault-rate <P>', 'fraction of requests answered with a fault (429, 500, or a dropped connection)', number(0, 1))
    .option('--rate-limit <RPS>', 'token-bucket rate limit, requests per second', number(0.1, 100_000))
    .action(async (opts: EmulatorOptions) => {
      const emulator = await startEmulator({
        host: opts.host,
        port: opts.port,
        ...(opts.state ? { stateFile: opts.state } : {}),
        seed: defaultSeed({ organizationId: DEFAULT_ORGANIZATION_ID, users: EMULATOR_EXAMPLE_USERS }),
        // Any organization_id a configuration names exists here, with the example users.
        openOrganizations: true,
        ...(opts.latency !== undefined ? { latencyMs: opts.latency } : {}),
        ...(opts.faultRate !== undefined ? { faultRate: opts.faultRate } : {}),
        ...(opts.rateLimit !== undefined ? { rateLimit: opts.rateLimit } : {}),
      });
      io.stdout(
        [
          `docket emulator listening on ${emulator.url}`,
          `  DOCKET_REVIEW_URL=${emulator.reviewUrl}`,
          `  DOCKET_AGREEMENTS_URL=${emulator.agreementsUrl}`,
          `  DOCKET_ORGANIZATION_ID=${DEFAULT_ORGANIZATION_ID}   (any organization id works: it is created on first use)`,
          `  DOCKET_API_KEY=${EMULATOR_API_KEY}`,
          `  control routes: ${emulator.url}/_emulator/stats, /_emulator/reset, /_emulator/config, /_emulator/faults`,
          'Press Ctrl-C to stop.',
          '',
        ].join('\n'),
      );
      await waitForStop();
      await emulator.close();
    });
}
