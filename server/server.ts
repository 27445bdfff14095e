import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { ConfigError, loadConfig, type AppConfig } from './config';

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

// SIGTERM/SIGINT (or a crash): stop accepting connections, let the requests in flight finish, close
// the database; after SHUTDOWN_TIMEOUT_MS the process exits anyway (close-with-grace).
closeWithGrace({ delay: config.shutdownTimeoutMs, logger: { error: (message: unknown) => app.log.error(message) } }, async ({ err, signal }) => {
  if (err) app.log.error(err);
  else app.log.info({ signal }, 'closing: finishing the requests in flight');
  await app.close();
});

await app.listen({ port: config.port, host: config.host });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
console.log(`${config.productName} ascultă pe http://localhost:${port} (baza de date: ${app.database.kind})`);
