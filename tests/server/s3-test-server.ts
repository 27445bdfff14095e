import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../../server/config';

/**
 * A real S3-speaking server (s3rver) on 127.0.0.1, a free port, its objects in a temporary folder
 * that `close()` removes. `config` is what S3_BUCKET/S3_ENDPOINT/… would give the app (s3rver's own
 * credentials, path-style addresses).
 */
export async function startS3(bucket = 'ghiseu-test') {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const config: S3Config = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  let running = true;
  return {
    port,
    config,
    directory,
    /** Stops the server, keeping its folder (a test can bring the storage down mid-way). */
    async stop() {
      if (running) await server.close();
      running = false;
    },
    async close() {
      if (running) await server.close();
      running = false;
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
