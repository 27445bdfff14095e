import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from './config';

/**
 * Listens, and closes gracefully: on SIGTERM/SIGINT (or a crash) the server stops accepting
 * connections, lets the requests in flight finish and closes the database; after
 * SHUTDOWN_TIMEOUT_MS the process exits anyway (close-with-grace). Returns the port listened on.
 */
export async function startServer(app: FastifyInstance, config: AppConfig): Promise<number> {
  closeWithGrace({ delay: config.shutdownTimeoutMs, logger: { error: (message: unknown) => app.log.error(message) } }, async ({ err, signal }) => {
    if (err) app.log.error(err);
    else app.log.info({ signal }, 'closing: finishing the requests in flight');
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : config.port;
}
