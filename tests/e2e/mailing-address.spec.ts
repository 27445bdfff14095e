/**
 * The mailing-address step (new-PFA step 6) in Chromium against the real server: a custom
 * correspondence address saved through the address form and selected; the credit partner's
 * county and branch office.
 */
import type { Envelope } from '@/core/api-types';
import { choosePlace } from './drivers';
import { currentRequest, expect, newApplicantAt, test } from './fixtures';
import { flowStepText, localeText, textStart } from '../copy';

test('another correspondence address: saved through the form, selected, and the step moves on', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 6);
  await expect(page.getByRole('heading', { level: 1, name: localeText('steps:mailingAddress.title') })).toBeVisible();
  const next = page.getByRole('button', { name: flowStepText('requesting-company-step-6', 'submit') });
  await expect(next).toBeDisabled();
  // No home address yet (the identity step was skipped here): the ID-card option cannot be chosen.
  await expect(page.getByRole('radio', { name: textStart(localeText('steps:mailingAddress.idCard')) })).toBeDisabled();

  const custom = page.getByRole('radio', { name: textStart(localeText('steps:mailingAddress.custom')) });
  await page.locator('label', { has: custom }).click();
  await page.getByRole('textbox', { name: textStart(localeText('steps:mailingAddress.contactFirstName')) }).fill('Ana');
  await page.getByRole('textbox', { name: textStart(localeText('steps:mailingAddress.contactLastName')) }).fill('Popescu');
  await page.getByRole('textbox', { name: textStart(localeText('steps:mailingAddress.contactPhone')) }).fill('0722123456');
  await choosePlace(page, localeText('steps:address.county'), 'Iași', 'Iași');
  await choosePlace(page, localeText('steps:address.city'), 'Iași', 'Iași');
  await page.getByRole('textbox', { name: textStart(localeText('steps:address.street')) }).fill('Str. Lăpușneanu');
  await page.getByRole('textbox', { name: textStart(localeText('steps:address.number')) }).fill('14');
  await page.getByRole('textbox', { name: textStart(localeText('steps:address.postalCode')) }).fill('12345');
  await page.getByRole('button', { name: localeText('steps:address.save') }).click();
  // The server's message under the field; editing it clears the error.
  await expect(page.getByText('Codul poștal are 6 cifre.')).toBeVisible();
  await page.getByRole('textbox', { name: textStart(localeText('steps:address.postalCode')) }).fill('700057');
  await page.getByRole('button', { name: localeText('steps:address.save') }).click();

  await expect(page.getByText(localeText('steps:mailingAddress.saved'))).toBeVisible();
  await expect(custom).toBeChecked();
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/7$/);
  const state = await currentRequest(request, account);
  expect(state.form_data.mailing_address_type).toBe('custom_address');
  expect(state.mailing_address).toMatchObject({ contact_first_name: 'Ana', contact_last_name: 'Popescu', contact_phone: '0722123456', county: 'Iași', city: 'Iași', street: 'Str. Lăpușneanu', number: '14', postal_code: '700057' });
});

test('credit partner: a county, then one of its branch offices, whose address is shown', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 6, { partnerSlug: 'icredit' });
  await expect(page.getByRole('heading', { level: 1, name: localeText('steps:mailingAddress.titleIcredit') })).toBeVisible();
  const next = page.getByRole('button', { name: flowStepText('requesting-company-step-6', 'submit') });
  await expect(next).toBeDisabled();
  await choosePlace(page, localeText('steps:mailingAddress.county'), 'Cluj', 'Cluj');
  const office = page.getByRole('radio', { name: /^iCredit Cluj-Napoca – Agenția Mănăștur/ });
  await expect(page.getByText('Calea Florești nr. 58, Cluj-Napoca')).toBeVisible();
  await page.locator('label', { has: office }).click();
  await expect(office).toBeChecked();
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/7$/);
  const state = await currentRequest(request, account);
  const { data } = ((await (await request.get(`/api/nomenclature/icredit-office/index?county_id=${state.form_data.icredit_county_id}`)).json()) as Envelope<{ data: { id: number; county_id: number; address: string }[] }>).payload;
  const chosen = data.find((o) => o.id === state.form_data.icredit_office_id)!;
  expect(chosen).toBeTruthy();
  expect(state.form_data.icredit_address).toBe(chosen.address);
});
