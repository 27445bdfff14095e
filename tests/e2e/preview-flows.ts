import os from 'node:os';
import path from 'node:path';

/**
 * The folder the e2e server's staff preview reads flow files from (`PREVIEW_FLOWS_DIR`): a copy of
 * flows/ made at its start, one per port, so staff-preview.spec.ts can edit a flow file without
 * touching the repository's.
 */
export function previewFlowsDir(port = Number(process.env.E2E_PORT || 3100)): string {
  return path.join(os.tmpdir(), `ghiseu-e2e-preview-flows-${port}`);
}
