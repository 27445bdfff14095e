/**
 * The real server for the Playwright tests (playwright.config.ts `webServer`):
 * `tsx tests/e2e/serve.ts`. Every run starts clean: a fresh temporary DATA_DIR (embedded PGlite,
 * local file storage, mail outbox), the built browser app from dist/ (run `vite build` first;
 * `npm run test:e2e` does; E2E_DIST names another folder), on 127.0.0.1:${E2E_PORT || 3100}.
 *
 * It also registers the test-only routes of tests/e2e/test-routes.ts.
 *
 * E2E_KEEP_DATA=1 keeps the data folder after the run (its path is printed) for debugging.
 *
 * E2E_FLOWS_DIR: a folder with every flow file (a copy of flows/, some of them changed) that the server
 * runs instead of flows/ (`npm run test:flow -- <file anywhere>` makes one); the build must bundle the
 * same files (`vite build --mode test` with the same variable: scripts/vite-plugin-flows-dir.ts).
 * Test-only: the production server never reads it (this file is no part of it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { E2E_OPS_TOKEN } from './ops-token';
import { previewFlowsDir } from './preview-flows';

const root = fileURLToPath(new URL('../..', import.meta.url));
const port = Number(process.env.E2E_PORT || 3100);
const host = '127.0.0.1';
const origin = `http://${host}:${port}`;
// E2E_DIST: another build folder (default dist/).
const staticDir = path.resolve(root, process.env.E2E_DIST || 'dist');

if (!fs.existsSync(path.join(staticDir, 'index.html'))) {
  console.error(`[e2e] ${path.join(staticDir, 'index.html')} is missing: run \`npm run build\` first (\`npm run test:e2e\` builds).`);
  process.exit(1);
}

const DATA_PREFIX = 'ghiseu-e2e-';

/**
 * Removes data folders of earlier runs whose server is gone without cleaning up (the `tsx` CLI
 * SIGKILLs its child when a stop signal arrives while the child is busy starting). A folder belongs
 * to the process id in its `e2e.pid`; folders without one are removed after an hour.
 */
function sweepStaleDataDirs() {
  const tmp = os.tmpdir();
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(DATA_PREFIX)) continue;
    const dir = path.join(tmp, name);
    try {
      const pid = Number(fs.readFileSync(path.join(dir, 'e2e.pid'), 'utf8'));
      try {
        process.kill(pid, 0);
        continue; // Still running (another e2e run on this machine).
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') continue;
      }
    } catch {
      if (Date.now() - fs.statSync(dir).mtimeMs < 3_600_000) continue;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
try {
  sweepStaleDataDirs();
} catch (error) {
  console.warn('[e2e] could not sweep old data folders:', error);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), DATA_PREFIX));
// E2E_FLOWS_DIR: other flow files instead of flows/ (checked like them when the app starts).
const flowsDir = process.env.E2E_FLOWS_DIR ? path.resolve(process.env.E2E_FLOWS_DIR) : null;
// The staff preview reads a copy of flows/ that staff-preview.spec.ts may edit (made afresh at each start).
const previewFlows = previewFlowsDir(port);
fs.rmSync(previewFlows, { recursive: true, force: true });
fs.cpSync(flowsDir ?? path.join(root, 'flows'), previewFlows, { recursive: true });
fs.writeFileSync(path.join(dataDir, 'e2e.pid'), String(process.pid));

// The environment of the run. Set on process.env before the server modules load, so that any part
// reading the environment directly (not through loadConfig) sees the same values.
const overrides: Record<string, string> = {
  HOST: host,
  PORT: String(port),
  PUBLIC_URL: origin,
  DATA_DIR: dataDir,
  // Always the embedded database, the outbox mailer, in-memory limits and local files, whatever the
  // shell exports (.ci/run exports REDIS_URL for the API tests).
  DATABASE_URL: '',
  SMTP_URL: '',
  REDIS_URL: '',
  S3_BUCKET: '',
  SERVE_STATIC: '1',
  STATIC_DIR: staticDir,
  DASHBOARD_URL: '',
  IDV_SIMULATOR_DELAY_MS: '500',
  // The built-in identity simulator, whatever the shell exports.
  VERIFF_API_KEY: '',
  AUTH_CALLBACK_ORIGINS: 'http://127.0.0.1:3999',
  // The operator API (`npm run ops`): status.spec.ts runs the real command with this token.
  OPS_TOKEN: E2E_OPS_TOKEN,
  LOG: process.env.E2E_LOG ?? '0',
  PREVIEW_FLOWS_DIR: previewFlows,
  // Every spec registers its own users from 127.0.0.1: the per-address limits stay out of the way.
  REGISTER_LIMIT_PER_HOUR: '1000000',
  FORGOT_PASSWORD_LIMIT_PER_HOUR: '1000000',
  IDENTITY_SESSION_LIMIT_PER_HOUR: '1000000',
  UPLOAD_LIMIT_PER_HOUR: '1000000',
  COMPANY_LOOKUP_LIMIT_PER_HOUR: '1000000',
  LOGIN_ADDRESS_MAX_FAILURES: '1000000',
};
Object.assign(process.env, overrides);

let app: FastifyInstance | null = null;
let closing = false;
async function shutdown(code: number) {
  if (closing) return;
  closing = true;
  try {
    await app?.close();
  } catch (error) {
    console.error('[e2e] closing the server failed:', error);
  }
  if (process.env.E2E_KEEP_DATA === '1') console.log(`[e2e] data kept in ${dataDir}`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}
// Registered before the (slow) start so that an early stop still removes the data folder. `on`, not
// `once`: Playwright signals the whole process group, so tsx's relay delivers the signal a second time.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(0));

try {
  const { loadConfig } = await import('../../server/config');
  const { buildApp } = await import('../../server/app');
  const { readFlows } = await import('../../server/flows/registry');
  const config = { ...loadConfig(process.env), host, port, dataDir, serveStatic: true, staticDir };
  const flows = flowsDir ? readFlows(flowsDir).map(({ flow }) => flow) : undefined;
  if (flowsDir) console.log(`[e2e] flow files of ${flowsDir} (E2E_FLOWS_DIR)`);
  // checkAnswers: an answer its response schema would change (a field dropped) is a 500 the spec sees.
  app = await buildApp(config, { checkAnswers: true, flows });
  // Test-only routes (POST /__test/place-at-step), never part of server/app.ts.
  const { registerTestRoutes } = await import('./test-routes');
  await registerTestRoutes(app);
  await app.listen({ port, host });
  console.log(`[e2e] server on ${origin} (database: ${app.database.kind}, data: ${dataDir})`);
} catch (error) {
  console.error(`[e2e] the server did not start on ${origin}:`, error);
  await shutdown(1);
}
