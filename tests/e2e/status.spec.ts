/**
 * The status page (spec 001 §2 item 11, §4 "Timeline states", §7 the download) with the real
 * operator command: `tsx scripts/ops.ts` (what `npm run ops` runs) talks to the e2e server over
 * HTTP with its OPS_TOKEN; the page shows each item at its next 5 s poll, and the trade register's
 * documents download as documente.zip holding exactly the attached files.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test, expect, currentRequest, newApplicantAt } from './fixtures';
import { E2E_OPS_ACTOR, E2E_OPS_TOKEN } from './ops-token';
import { readZip } from '../server/zip-reader';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** Runs the operator command; resolves to its exit code and output (never throws on a non-zero exit). */
async function ops(baseURL: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'scripts/ops.ts', ...args], {
      cwd: root,
      env: { ...process.env, OPS_URL: baseURL, OPS_TOKEN: E2E_OPS_TOKEN, OPS_ACTOR: E2E_OPS_ACTOR },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(error) };
  }
}

/** One poll (5 s) plus slack. */
const NEXT_POLL = { timeout: 12_000 };

test('operator items and documents reach the status page; the download is documente.zip', async ({ page, request, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const account = await newApplicantAt(page, request, 9);
  const { id } = await currentRequest(request, account);

  await page.goto('/infiintare-pfa/status');
  await expect(page.getByRole('heading', { level: 1, name: 'Status Dosar' })).toBeVisible();
  await expect(page.getByText('Procesarea dosarelor la Registrul Comerțului poate dura mai mult decât de obicei.', { exact: false })).toBeVisible();
  await expect(page.getByText(/Încă nu există nicio actualizare a dosarului tău/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Descarcă documentele (documente.zip)' })).toHaveCount(0);

  // By e-mail: a name reservation.
  const reserved = await ops(baseURL!, ['add', account.email, 'name_reservation', '--pfa_name', 'POPESCU ION PFA', '--hasNameReservation', 'true', '--date', '2026-11-23']);
  expect(reserved.code, reserved.stderr).toBe(0);
  expect(reserved.stdout).toContain(`to dossier ${id} (${account.email})`);
  const cards = page.getByTestId('timeline-item');
  await expect(cards).toHaveCount(1, NEXT_POLL);
  await expect(cards.first()).toContainText('Denumirea „POPESCU ION PFA” a fost rezervată la Registrul Comerțului.');
  await expect(cards.first()).toContainText('23 noiembrie 2026');

  // By id: an earlier, incomplete document review (it goes below the reservation: newest first).
  const review = await ops(baseURL!, ['add', String(id), 'document_review', '--isDataComplete', 'nu', '--hasDiploma', 'nu', '--date', '2026-11-20']);
  expect(review.code, review.stderr).toBe(0);
  await expect(cards).toHaveCount(2, NEXT_POLL);
  await expect(cards.nth(1)).toContainText('Am verificat documentele tale: dosarul nu este încă complet.');
  await expect(cards.nth(1).getByRole('listitem')).toHaveText(['diploma de studii']);

  // A wrong value: the command fails with the server's field error and nothing is added.
  const wrong = await ops(baseURL!, ['add', account.email, 'submitted', '--finalDossierSubmitted', 'poate']);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toContain('finalDossierSubmitted: Valoarea trebuie să fie true sau false.');

  // The trade register's documents.
  const dir = testInfo.outputPath('documente');
  fs.mkdirSync(dir, { recursive: true });
  const certificate = path.join(dir, 'certificat-inregistrare.pdf');
  const resolution = path.join(dir, 'rezolutie.pdf');
  fs.writeFileSync(certificate, '%PDF-1.4\n% certificat de înregistrare\n%%EOF\n');
  fs.writeFileSync(resolution, '%PDF-1.4\n% rezoluția directorului\n%%EOF\n');
  const attached = await ops(baseURL!, ['attach', account.email, certificate, resolution]);
  expect(attached.code, attached.stderr).toBe(0);
  expect(attached.stdout).toContain('Attached 2 file(s)');

  const button = page.getByRole('button', { name: 'Descarcă documentele (documente.zip)' });
  await expect(button).toBeVisible(NEXT_POLL);
  await expect(page.getByRole('region', { name: 'Documentele de la Registrul Comerțului' }).getByRole('listitem')).toHaveText([
    'certificat-inregistrare.pdf',
    'rezolutie.pdf',
  ]);
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('documente.zip');
  const entries = readZip(fs.readFileSync(await download.path()));
  expect(entries.map((e) => e.name)).toEqual(['certificat-inregistrare.pdf', 'rezolutie.pdf']);
  expect(entries[0].data.equals(fs.readFileSync(certificate))).toBe(true);
  expect(entries[1].data.equals(fs.readFileSync(resolution))).toBe(true);

  // Finalized: on top.
  const finalized = await ops(baseURL!, ['finalize', account.email, '--date', '2026-12-05']);
  expect(finalized.code, finalized.stderr).toBe(0);
  await expect(cards).toHaveCount(3, NEXT_POLL);
  await expect(cards.first()).toContainText('PFA înregistrat');
  await expect(cards.first()).toContainText('5 decembrie 2026');
  expect((await currentRequest(request, account)).status).toBe('finalized');
});
