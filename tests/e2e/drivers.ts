import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Envelope } from '@/core/api-types';
import type { FlowStep } from '@/core/flow';
import { identityPhotos } from './images';
import { localeText, textPattern, textStart } from '../copy';

/**
 * How the flow walker fills each widget or field of widgets/registry.ts from a step's `examples`
 * entry, the way a person would: by the visible Romanian labels, read from the locale files
 * (tests/copy.ts `localeText`: staff edit copy, not tests).
 */
export type Driver = (
  page: Page,
  value: Record<string, unknown>,
  ctx: { request: APIRequestContext; registrationType: 1 | 2; step?: FlowStep; screen?: Screen },
) => Promise<void>;

/** Called on each screen a driver passes through, once it is drawn (the axe sweep checks it). */
export type Screen = (label: string) => Promise<void>;

async function payload<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url);
  expect(res.ok(), `GET ${url}`).toBe(true);
  return ((await res.json()) as Envelope<T>).payload;
}

/**
 * The name of a step's button, as its flow file gives it: `copy.submit` (`steps:common.next` when the
 * file names none, as the step runner shows it) or, under 1280 px, `copy.submitShort`.
 */
export function submitName(step?: Pick<FlowStep, 'copy'>): RegExp {
  const keys = [step?.copy?.submit ?? 'steps:common.next', step?.copy?.submitShort].filter((k): k is string => !!k);
  return new RegExp(`^(${keys.map((key) => textPattern(localeText(key)).source).join('|')})$`);
}

/** Ticks a checkbox or radio the way a person does: by clicking its (visible) card or label. */
async function pick(page: Page, role: 'checkbox' | 'radio', name: string): Promise<void> {
  const input = page.getByRole(role, { name, exact: true });
  await page.locator('label', { has: input }).click();
  await expect(input).toBeChecked();
}

/** Chooses `option` in a county/city picker after typing `text` into it. */
export async function choosePlace(page: Page, label: string, text: string, option: string): Promise<void> {
  const input = page.getByRole('combobox', { name: textStart(label) });
  await input.click();
  // The picker searches 500 ms after the last keystroke and replaces its list with the answer:
  // pick from that answer (a click while the list is being replaced can be lost).
  const term = new URLSearchParams({ search_term: text }).toString();
  const searched = page.waitForResponse((r) => r.url().includes('/api/nomenclature/') && r.url().includes(term));
  await input.fill(text);
  await searched;
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(input).toHaveValue(option);
}

/** Uploads the three identity photos in order (front, back, selfie) through the step's file inputs. */
export async function uploadIdentityPhotos(page: Page, prefix = 'buletin'): Promise<void> {
  const photos = identityPhotos(prefix);
  for (const context of ['document-front', 'document-back', 'face'] as const) {
    await page.locator(`input[name="${context}"]`).setInputFiles(photos[context]);
    await expect(page.getByTestId(`identity-slot-${context}`)).toHaveAttribute('data-state', 'completed');
  }
}

/** "Modifică informații", the home address and place of birth, "Salvează". */
export async function fillHomeAddress(page: Page, screen?: Screen): Promise<void> {
  await page.getByRole('button', { name: localeText('steps:identity.edit') }).click();
  const placeOfBirth = page.getByRole('textbox', { name: textStart(localeText('steps:address.placeOfBirth')) });
  await expect(placeOfBirth).toBeVisible();
  await screen?.('address form');
  await placeOfBirth.fill('Cluj-Napoca');
  await choosePlace(page, localeText('steps:address.county'), 'Cluj', 'Cluj');
  await choosePlace(page, localeText('steps:address.city'), 'Cluj-Nap', 'Cluj-Napoca');
  await page.getByRole('textbox', { name: textStart(localeText('steps:address.street')) }).fill('Memorandumului');
  await page.getByRole('textbox', { name: textStart(localeText('steps:address.number')) }).fill('28');
  await page.getByRole('button', { name: localeText('steps:address.save') }).click();
  await expect(page.getByText(localeText('steps:identity.saved'))).toBeVisible();
}

/**
 * The identity step as a desktop user does it: continue on desktop, three photos, "Trimite pentru
 * verificare", the simulator's approval (status polled every 5 s), then the home address. The photos
 * are named so the simulator reads no address from the card ("fara-adresa"): the applicant types it,
 * and the walker passes the address form (identity-address.spec.ts walks a card's address).
 */
export async function completeIdentity(page: Page, screen?: Screen): Promise<void> {
  await expect(page.getByTestId('identity-step')).toHaveAttribute('data-phase', 'collecting');
  // On a desktop the QR code comes first; on a phone (up to 1024 px) the camera inputs.
  const handedOver = await page.getByTestId('identity-handover').isVisible();
  if (handedOver) await expect(page.getByTestId('identity-qr')).toBeVisible();
  await screen?.('collecting');
  if (handedOver) {
    await page.getByRole('button', { name: localeText('steps:identity.handOver.desktop') }).click();
    await screen?.('uploads on desktop');
  }
  await uploadIdentityPhotos(page, 'buletin-fara-adresa');
  await screen?.('photos uploaded');
  await page.getByRole('button', { name: localeText('steps:identity.submit') }).click();
  await expect(page.getByText(localeText('steps:identity.approved'))).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(localeText('steps:identity.missingAddress'))).toBeVisible();
  await screen?.('approved, address missing');
  await fillHomeAddress(page, screen);
  await expect(page.getByText(/Memorandumului/)).toBeVisible();
  await screen?.('approved, address saved');
}

/** Signs on the step's pad with the mouse: a short zig-zag across the canvas. */
export async function drawSignature(page: Page): Promise<void> {
  const canvas = page.locator('canvas').first();
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.15, box.y + box.height * 0.6);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) {
    await page.mouse.move(box.x + box.width * (0.15 + i * 0.08), box.y + box.height * (i % 2 ? 0.35 : 0.65), { steps: 4 });
  }
  await page.mouse.up();
}

export const drivers: Record<string, Driver> = {
  async signature(page, _value, { screen }) {
    await expect(page.locator('canvas').first()).toBeVisible();
    await screen?.('open');
    await drawSignature(page);
  },
  /** Overview: a primary CAEN code when the activity needs one (the credit partner's are preset), the office kept at the product. */
  async overview(page, value, { step, screen }) {
    await expect(page.getByRole('heading', { name: localeText('steps:overview.caenTitle') })).toBeVisible();
    const officeProduct = page.getByRole('radio', { name: textStart(localeText('steps:overview.officeProduct')) });
    await expect(officeProduct).toBeChecked();
    const options = (step?.uiSchema?.['ui:options'] ?? {}) as { lockedCodes?: string[]; codesByOperator?: boolean };
    if (options.lockedCodes?.length) {
      // The partner's codes are preset and locked: the step is ready when they show and "Pasul următor"
      // is enabled (what the applicant waits for), not while the button is still fading in.
      for (const code of options.lockedCodes) await expect(page.getByText(new RegExp(`^${code} – `))).toBeVisible();
      await expect(page.getByRole('button', { name: submitName(step) })).toBeEnabled();
      await screen?.('open');
    } else if (options.codesByOperator) {
      await screen?.('open');
    } else {
      await screen?.('open');
      const primary = page.getByRole('combobox', { name: textStart(localeText('steps:overview.primary')) });
      await primary.click();
      await primary.fill('6210');
      await page.getByRole('option', { name: /^6210/ }).click();
      await expect(page.getByText(localeText('steps:overview.saved')).first()).toBeVisible();
    }
    expect(value.address_type).toBe(1);
    await expect(officeProduct).toBeChecked();
  },
  /**
   * Documents: "send later" for the diploma (and the licence, where the activity has one), then the
   * first "Pasul următor", which shows the power-of-attorney screen; the walker's press submits.
   */
  async documents(page, value, { step, screen }) {
    // The licence block is part of the step's section: wait for the section before asking whether it is there.
    await expect(page.getByTestId('documents-step')).toBeVisible();
    await screen?.('open');
    if (value.send_diploma_later) await page.getByRole('button', { name: localeText('steps:documents.sendLater'), exact: true }).first().click();
    const licence = page.getByRole('radio', { name: localeText(value.driver_license_status === 0 ? 'steps:documents.licence.none' : 'steps:documents.licence.later') });
    if (value.driver_license_status !== null && value.driver_license_status !== undefined && (await licence.count())) {
      await page.locator('label', { has: licence }).click();
      await expect(licence).toBeChecked();
    }
    await page.getByRole('button', { name: submitName(step) }).click();
    await expect(page.getByRole('heading', { name: localeText('steps:documents.attorney.title') })).toBeVisible();
    await screen?.('power of attorney');
  },
  async mailingAddress(page, value, { screen }) {
    const name = localeText(value.mailing_address_type === 'id_card_address' ? 'steps:mailingAddress.idCard' : 'steps:mailingAddress.custom');
    const radio = page.getByRole('radio', { name: textStart(name) });
    await expect(radio).toBeVisible();
    await screen?.('open');
    await page.locator('label', { has: radio }).click();
    await expect(radio).toBeChecked();
  },
  async icreditOffice(page, value, { request, screen }) {
    const { data: counties } = await payload<{ data: { id: number; name: string }[] }>(request, '/api/nomenclature/county/index/0/42');
    const county = counties.find((c) => c.id === value.icredit_county_id)!;
    const { data: offices } = await payload<{ data: { id: number; name_formatted: string }[] }>(request, `/api/nomenclature/icredit-office/index?county_id=${county.id}`);
    const office = offices.find((o) => o.id === value.icredit_office_id)!;
    const countyLabel = localeText('steps:mailingAddress.county');
    await expect(page.getByRole('combobox', { name: textStart(countyLabel) })).toBeVisible();
    await screen?.('open');
    await choosePlace(page, countyLabel, county.name, county.name);
    const radio = page.getByRole('radio', { name: new RegExp(`^${office.name_formatted}`) });
    await page.locator('label', { has: radio }).click();
    await expect(radio).toBeChecked();
    await screen?.('office chosen');
  },
  async identity(page, _value, { screen }) {
    await completeIdentity(page, screen);
  },
  async questionnaire(page, value, { request, registrationType, screen }) {
    const reasons = await payload<{ identifier: string; fe_text: string }[]>(request, `/api/nomenclature/lost-reasons/index?registration_type=${registrationType}`);
    await expect(page.getByRole('checkbox', { name: reasons[0].fe_text, exact: true })).toBeVisible();
    await screen?.('open');
    for (const id of value.reasons as string[]) {
      const text = reasons.find((r) => r.identifier === id)!.fe_text;
      await pick(page, 'checkbox', text);
    }
  },
  async activities(page, value, { request, screen }) {
    const list = await payload<{ id: number; code: string; name: string; is_primary: boolean }[]>(request, '/api/nomenclature/activity/index?is_active=1');
    const activity = list.find((a) => a.id === value.activity_id)!;
    if (activity.code === 'question-mark') {
      await pick(page, 'radio', localeText('steps:activities.notFound'));
      await page.getByLabel(localeText('steps:activities.detailsLabel')).fill(String(value.activity_details));
      return;
    }
    const more = page.getByRole('button', { name: localeText('steps:activities.more') });
    // The list (and its "more" button) first: isVisible() does not wait.
    await expect(page.getByRole('radio').first()).toBeVisible();
    await screen?.('open');
    if (!activity.is_primary && (await more.isVisible())) await more.click();
    await pick(page, 'radio', activity.name);
    await screen?.('chosen');
  },
  async civilStatus(page, value, { request, screen }) {
    const choice = page.getByRole('button', { name: localeText(value.is_married ? 'steps:civilStatus.married' : 'steps:civilStatus.notMarried'), exact: true });
    await expect(choice).toBeVisible();
    await screen?.('open');
    await choice.click();
    if (value.is_married) {
      const { data } = await payload<{ data: { id: number; display_name: string }[] }>(request, '/api/nomenclature/marital-status/index');
      await pick(page, 'radio', data.find((m) => m.id === value.marital_status_id)!.display_name);
    }
    await screen?.('chosen');
  },
  async cardChoice(page, value, { screen }) {
    await expect(page.getByRole('radio', { name: localeText('steps:card.no'), exact: true })).toBeVisible();
    await screen?.('open');
    await pick(page, 'radio', localeText(value.ghiseu_card_requested === 1 ? 'steps:card.yes' : 'steps:card.no'));
    await screen?.('chosen');
  },
  /** Plain fields without a custom widget (the fiscal code): each example value typed into its labelled input. */
  async $form(page, value, { step, screen }) {
    await expect(page.locator(`#${step!.id}_${Object.keys(value)[0]}`)).toBeVisible();
    await screen?.('open');
    for (const [key, v] of Object.entries(value)) {
      const input = page.locator(`#${step!.id}_${key}`);
      await input.fill(String(v));
      await expect(input).toHaveValue(String(v));
    }
  },
  /** "Te-am găsit": the found PFA, then the first "Pasul următor" shows the power of attorney; the walker's press confirms. */
  async confirmCompany(page, _value, { step, screen }) {
    await expect(page.getByTestId('company-name')).not.toBeEmpty();
    await screen?.('open');
    await page.getByRole('button', { name: submitName(step) }).click();
    await expect(page.getByRole('heading', { name: localeText('steps:confirmCompany.attorney.title') })).toBeVisible();
    await screen?.('power of attorney');
  },
  /** Pricing: the partner's single price is chosen already (several: the example's one is picked). */
  async pricePlans(page, value, { screen }) {
    await expect(page.getByText(localeText('steps:pricing.featuresTitle'))).toBeVisible();
    const radio = page.locator(`input[type="radio"][value="${String(value.selected_stripe_id)}"]`);
    // The prices first (a single price's amount, or the radios of several): count() does not wait.
    await expect(page.getByTestId('price-amount').or(page.locator('input[type="radio"]')).first()).toBeAttached();
    await screen?.('open');
    if (await radio.count()) await page.locator('label', { has: radio }).click();
    else await expect(page.getByTestId('price-amount')).toBeVisible();
  },
};

/**
 * The values a widget offers for its field, where the walker needs another answer than the step's
 * example (a submit branch: the questionnaire's reasons other than "niciuna" leave the flow).
 */
export const choices: Record<string, (request: APIRequestContext, ctx: { registrationType: 1 | 2; step: FlowStep }) => Promise<unknown[]>> = {
  async questionnaire(request, { registrationType }) {
    const reasons = await payload<{ identifier: string }[]>(request, `/api/nomenclature/lost-reasons/index?registration_type=${registrationType}`);
    return reasons.map((r) => r.identifier);
  },
};

/** The built-in checkout page after "Vreau {product}": its amount, then "Plătește". */
export async function payAtBuiltinCheckout(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/checkout\/pay_[\w-]+$/);
  await expect(page.getByTestId('checkout-amount')).toContainText('lei');
  await page.getByRole('button', { name: localeText('pages:checkout.pay') }).click();
}
