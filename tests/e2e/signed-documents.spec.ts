/**
 * The signed documents (issue 17 item 10, spec 001 §2 item 5) in Chromium against the real server:
 * the applicant draws the signature, the dossier is sent, and the status page's "Documentele
 * semnate" downloads the contract and the power-of-attorney request as PDFs carrying the
 * applicant's name and the drawn signature; the operator command saves the same PDFs.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Envelope } from '@/core/api-types';
import { auth, currentRequest, expect, newApplicantAt, test } from './fixtures';
import { drawSignature } from './drivers';
import { E2E_OPS_ACTOR, E2E_OPS_TOKEN } from './ops-token';
import { readPdf } from '../server/pdf-text';
import { flowStepText } from '../copy';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

test('after sending, the status page downloads the signed PDFs; the operator command saves them too', async ({ page, request, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const account = await newApplicantAt(page, request, 5);
  await drawSignature(page);
  await page.getByRole('button', { name: flowStepText('requesting-company-step-5', 'submit') }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/6$/);

  // The rest of a complete dossier through the API (home address, CNP, a primary code), then the send.
  const placed = await request.post('/__test/place-at-step', {
    headers: auth(account),
    data: { step: 'requesting-company-step-7', form_data: { activity_id: 1, activity: 'consultanta-it', address_type: 1 } },
  });
  expect(placed.ok()).toBe(true);
  const { data: counties } = ((await (await request.get('/api/nomenclature/county/index/0/42?search_term=Iași')).json()) as Envelope<{ data: { id: number }[] }>).payload;
  const { data: cities } = ((await (await request.get(`/api/nomenclature/city/index/0/25?county_id=${counties[0].id}&search_term=Iași`)).json()) as Envelope<{ data: { id: number }[] }>).payload;
  const info = await request.post('/api/registration/update-user-info', {
    headers: auth(account),
    data: { first_name: 'Ștefan', last_name: 'Țăranu', place_of_birth: 'Iași', county_id: counties[0].id, city_id: cities[0].id, street: 'Mărășești', number: '12' },
  });
  expect(info.ok(), await info.text()).toBe(true);
  const { data: codes } = ((await (await request.get('/api/nomenclature/code/index/0/25?search_term=6210')).json()) as Envelope<{ data: { id: number }[] }>).payload;
  const edit = await request.post('/api/registration/update/form-data', { headers: auth(account), data: { personal_code: '1900515125806', codes: [codes[0].id] } });
  expect(edit.ok(), await edit.text()).toBe(true);
  const sent = await request.post('/api/registration/send', { headers: auth(account), data: { address_type: 1, current_step_identifier: 'requesting-company-step-7' } });
  expect(sent.ok(), await sent.text()).toBe(true);
  const { id } = await currentRequest(request, account);

  await page.goto('/infiintare-pfa/status');
  const section = page.getByRole('region', { name: 'Documentele semnate' });
  await expect(section).toBeVisible();
  const buttons = section.getByRole('button');
  await expect(buttons).toHaveText(['Descarcă: Contractul de asistență juridică (PDF)', 'Descarcă: Cererea de împuternicire (PDF)']);

  const names = ['contract-asistenta-juridica.pdf', 'cerere-imputernicire.pdf'];
  const titles = ['Contract de asistență juridică', 'Cerere de împuternicire'];
  const downloaded: Buffer[] = [];
  for (const [i, name] of names.entries()) {
    const downloading = page.waitForEvent('download');
    await buttons.nth(i).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(name);
    const bytes = fs.readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pdf = await readPdf(bytes);
    expect(pdf.lines[0]).toBe(titles[i]);
    expect(pdf.text).toContain('Țăranu Ștefan');
    expect(pdf.text).toContain('CNP 1900515125806');
    expect(pdf.images).toBe(1);
    downloaded.push(bytes);
  }

  // The operator command: `npm run ops -- download <dossier> --out <folder>`.
  const out = testInfo.outputPath('semnate');
  const { stdout } = await run('npx', ['tsx', 'scripts/ops.ts', 'download', account.email, '--out', out], {
    cwd: root,
    env: { ...process.env, OPS_URL: baseURL!, OPS_TOKEN: E2E_OPS_TOKEN, OPS_ACTOR: E2E_OPS_ACTOR },
    timeout: 60_000,
  });
  expect(stdout).toContain(`Saved 2 signed document(s) of dossier ${id} (${account.email})`);
  for (const [i, name] of names.entries()) expect(fs.readFileSync(path.join(out, name)).equals(downloaded[i])).toBe(true);
  // `show` lists them.
  const shown = await run('npx', ['tsx', 'scripts/ops.ts', 'show', String(id)], { cwd: root, env: { ...process.env, OPS_URL: baseURL!, OPS_TOKEN: E2E_OPS_TOKEN, OPS_ACTOR: E2E_OPS_ACTOR }, timeout: 60_000 });
  expect(shown.stdout).toContain('signed documents (2):');
  expect(shown.stdout).toContain('contract-asistenta-juridica.pdf  (legal_assistance_contract,');
});
