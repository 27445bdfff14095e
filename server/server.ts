import { buildApp } from './app';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { flowErrorsAtStart } from './flows/startup-check';
import { startServer } from './start';

// The entry only starts the app (server/app.ts): configuration first, refused as a whole when wrong.
let config: AppConfig;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const app = await buildApp(config);
// The flow files as flows:check sees them: a mistake there is refused here, not met by an applicant.
await app.ready();
const flowErrors = flowErrorsAtStart(app);
if (flowErrors.length) {
  console.error('Fișierele de flux au greșeli; serverul nu pornește (npm run flows:check). / The flow files have mistakes; the server does not start.');
  for (const line of flowErrors) console.error(`  - ${line}`);
  await app.close();
  process.exit(1);
}
const port = await startServer(app, config);
console.log(`${config.productName} ascultă pe http://localhost:${port} (baza de date: ${app.database.kind})`);
