/**
 * The settings of `npm run bench:api` (scripts/bench-api.ts), from its environment: see that file's
 * comment for the knobs.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
export const APPLICANTS = Number(process.env.BENCH_APPLICANTS ?? 200);
export const INSTANCES = Math.max(1, Math.min(2, Number(process.env.BENCH_INSTANCES ?? 1) || 1));
export const SEQUENTIAL_SUBMITS = 100;
export const HOST = '127.0.0.1';

export const NEW_OPEN = '/api/registration/open';
export const EXISTING_OPEN = '/api/registration/existing/open';
export const PRICE_SUBMIT = '/api/registration/existing/collect/partner-price';
export const PRICING_STEP = 'existing-company-step-4';
export const LIVE = '/api/health/live';
