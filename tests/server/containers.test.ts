import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// `yaml` is installed as a dependency of @fastify/swagger-ui (not one of ours): only this test reads YAML.
import { parse } from 'yaml';
import { ENV_SCHEMA, loadConfig, PRODUCTION_REQUIRED } from '../../server/config';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  ports?: string[];
  volumes?: string[];
}

/** Compose's `${NAME:-default}` with nothing exported: the default (a bare `${NAME}` would be empty). */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::-([^}]*))?\}/g, (_all, _name: string, fallback?: string) => fallback ?? '');
}

describe('compose.yaml (Docker does not run on the CI machine: the file is checked, not started)', () => {
  const compose = parse(read('compose.yaml')) as { services: Record<string, ComposeService> };
  const app = compose.services.app;
  const env = Object.fromEntries(Object.entries(app.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));

  it('runs two app replicas behind a reverse proxy, with PostgreSQL, Redis and MinIO', () => {
    expect(app.build).toBeDefined();
    expect(app.deploy?.replicas).toBe(2);
    expect(compose.services.proxy.image).toMatch(/^(caddy|nginx)/);
    expect(compose.services.proxy.ports).toEqual(['8080:80']);
    expect(compose.services.postgres.image).toMatch(/^postgres/);
    expect(compose.services.redis.image).toMatch(/^redis/);
    expect(compose.services.minio.image).toMatch(/^minio\/minio/);
    // The app itself publishes no port: only the proxy is reachable.
    expect(app.ports).toBeUndefined();
  });

  it("gives the app every variable production mode requires, and the app's check accepts them", () => {
    for (const name of PRODUCTION_REQUIRED) expect(env[name], name).toBeTruthy();
    expect(env.NODE_ENV).toBe('production');
    const config = loadConfig(env);
    expect(config.production).toBe(true);
    expect(config.databaseUrl).toMatch(/^postgres:\/\/ghiseu:.*@postgres:5432\/ghiseu$/);
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(config.s3).toMatchObject({ bucket: 'ghiseu-files', endpoint: 'http://minio:9000', forcePathStyle: true });
    expect(config.trustProxy).toBe(1);
  });

  it('names no variable the app does not know (a typo would be silently ignored)', () => {
    const known = new Set(Object.keys(ENV_SCHEMA.properties));
    expect(Object.keys(env).filter((name) => !known.has(name))).toEqual([]);
  });

  it('makes the bucket with the same credentials the app uses', () => {
    const minio = compose.services.minio.environment ?? {};
    expect(interpolate(String(minio.MINIO_ROOT_USER))).toBe(env.S3_ACCESS_KEY_ID);
    expect(interpolate(String(minio.MINIO_ROOT_PASSWORD))).toBe(env.S3_SECRET_ACCESS_KEY);
    expect(JSON.stringify(compose.services['minio-bucket'])).toContain(`local/${env.S3_BUCKET}`);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('is multi-stage on Node 20 slim, runs as a non-root user, production dependencies only, built assets', () => {
    const stages = dockerfile.match(/^FROM .*/gm) ?? [];
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage).toMatch(/^FROM node:20-slim\b/);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).toMatch(/RUN npx vite build/);
    expect(dockerfile).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^ENV NODE_ENV=production/m);
  });

  it('checks health on /api/health/ready, and the proxy routes only to ready replicas', () => {
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*\/api\/health\/ready/m);
    expect(read('deploy/Caddyfile')).toMatch(/health_uri \/api\/health\/ready/);
  });

  it('copies everything the server reads at run time', () => {
    for (const dir of ['server', 'src/core', 'flows', 'schemas', 'content', 'locales', 'widgets/names.json']) expect(dockerfile).toContain(`COPY ${dir} ./${dir}`);
    // The server imports nothing from src/ outside src/core (the image carries src/core only).
    const files = fs.readdirSync(path.join(root, 'server'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    for (const file of files) {
      for (const match of read(path.join('server', file)).matchAll(/from '((?:\.\.\/)+src\/[^']+)'/g)) {
        expect(path.relative(root, path.resolve(root, 'server', path.dirname(file), match[1])), `${file}: ${match[1]}`).toMatch(/^src\/core\//);
      }
    }
  });
});
