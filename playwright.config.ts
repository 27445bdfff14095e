import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests (`npm run test:e2e`): the Debian Chromium (never `playwright install`), against
 * the real server started by tests/e2e/serve.ts with a fresh embedded database and the built dist/.
 */
const CI = !!process.env.CI;
const port = Number(process.env.E2E_PORT || 3100);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  forbidOnly: CI,
  // No retries: a flaky test is a bug (it must wait for what a user waits for, not race the page).
  retries: 0,
  // Generous waits on a loaded 2-core machine: assertions auto-wait up to 15 s, a test up to 90 s.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: CI ? 1 : 2,
  reporter: [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    locale: 'ro-RO',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'tsx tests/e2e/serve.ts',
    url: `${baseURL}/api/health`,
    reuseExistingServer: !CI,
    timeout: 120_000,
    // Lets serve.ts close the database and delete its temporary DATA_DIR.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    stdout: 'pipe',
    stderr: 'pipe',
    env: { E2E_PORT: String(port) },
  },
});
