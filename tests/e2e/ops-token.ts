/** The operator token of the e2e server (tests/e2e/serve.ts sets OPS_TOKEN to it; status.spec.ts runs `npm run ops`'s script with it). */
export const E2E_OPS_TOKEN = process.env.E2E_OPS_TOKEN || 'e2e-ops-token-0123456789abcdef';

/** The operator the e2e tests act as (OPS_ACTOR of `npm run ops`, the X-Ops-Actor header of /api/ops: the audit log names them). */
export const E2E_OPS_ACTOR = 'Operator e2e';
