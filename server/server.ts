import { buildApp } from './app';
import { ConfigError, loadConfig, type AppConfig } from './config';
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
const port = await startServer(app, config);
console.log(`${config.productName} ascultă pe http://localhost:${port} (baza de date: ${app.database.kind})`);
