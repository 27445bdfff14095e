import { stepsInfo, type Flow, type FlowContext, type ResolvedFlow } from '@/core/flow';
import type { CompanyInfo, RegistrationRequest } from '@/core/api-types';
import type { EngineError } from '@/engine/api';
import type { IdentityService, OverviewData, Profile, StepServices } from '../../../../widgets/types';
import { createStepServices } from '../../flow/step-services';

/** The partner of a preview, as a request carries it (`GET /api/staff/preview`'s `partners`). */
export type PreviewPartnerOffer = RegistrationRequest['partner'];

/**
 * The applicant a preview shows: sample data (invented), a verified identity and a home address,
 * so the steps after identity show as they do for someone who got there.
 */
const SAMPLE_PROFILE: Profile = {
  first_name: 'Ion',
  last_name: 'Popescu',
  personal_code: '1900101123457',
  place_of_birth: 'Cluj-Napoca',
  county: 'Cluj',
  city: 'Cluj-Napoca',
  street: 'Strada Memorandumului',
  number: '1',
  postal_code: '400114',
  county_id: 1,
  city_id: 1,
  address_1: 'Strada Memorandumului nr. 1',
  address_2: 'Cluj-Napoca, Cluj',
};

/** The sample registry's first PFA (server/db/seed/companies.json), for "Te-am găsit". */
const SAMPLE_COMPANY: CompanyInfo = {
  name: 'POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ',
  address: 'Cluj-Napoca, Strada Memorandumului nr. 1',
  fiscal_code: '42157397',
  registration_number: 'F12/1234/2020',
  // A CAEN Rev.2 code, as most firms registered before 2025 still have: editors see the update notice.
  caen_code: '6201',
  caen: {
    code: '6201',
    status: 'previous',
    current: null,
    previous: { code: '6201', name: 'Activități de realizare a soft-ului la comandă (software orientat client)' },
    equivalents: [{ code: '6210', name: 'Activități de realizare a soft-ului la comandă (software orientat client)' }],
  },
};

/** The request a preview step runs with: no applicant, nothing stored; the entry's partner, activity and state. */
export function sampleRequest(flow: ResolvedFlow, stepId: string, partner: PreviewPartnerOffer, context: FlowContext): RegistrationRequest {
  return {
    id: 0,
    registration_type: flow.registrationType,
    step: stepId,
    status: 'in_progress',
    lost_reason: null,
    form_data: context.formData,
    profile: { ...SAMPLE_PROFILE },
    media: {},
    paid: Boolean(context.paid),
    paid_at: null,
    created_at: new Date(0).toISOString(),
    signature_file_id: null,
    ghiseu_card_requested: null,
    mailing_address: null,
    status_timeline: [],
    steps: stepsInfo(flow, stepId),
    variants: flow.variants,
    company: SAMPLE_COMPANY,
    partner,
  };
}

/** A write the preview refuses (identity photos): said as the API would, so the widget shows it. */
function refused(message: string): Promise<never> {
  return Promise.reject({ status: 403, message } satisfies EngineError);
}

/**
 * The widgets' services for the preview: the nomenclature reads go to the real, public API; every
 * call that would write (identity session and photos, a document's deletion, the overview's edits,
 * mark-as-lost, the mailing address) answers here without reaching the server; what needs an
 * applicant (the identity session, the overview's data) is sample data.
 */
export function previewServices(t: StepServices['t'], flow: Flow, noWrites: string, dossierSent: boolean): StepServices {
  const real = createStepServices(t, flow);
  let profile: Profile = { ...SAMPLE_PROFILE };
  const identity: IdentityService = {
    lastSession: async () => ({ session_id: 'preview', custom_id: 'preview', status: 2, submitted: true, uploads: { 'document-front': null, 'document-back': null, face: null } }),
    createSession: () => refused(noWrites),
    upload: () => refused(noWrites),
    submit: () => refused(noWrites),
    status: async () => 2,
    error: async () => ({ code: null, translated_reason: null }),
    deleteSession: () => refused(noWrites),
    preview: () => refused(noWrites),
    autoLoginLink: () => refused(noWrites),
    saveAddress: async (values) => (profile = { ...profile, ...values }),
  };
  const overview = async (): Promise<OverviewData> => {
    const { data } = await real.caen.search('6201', 0, 1);
    return {
      company_name: `${SAMPLE_PROFILE.last_name?.toUpperCase()} ${SAMPLE_PROFILE.first_name?.toUpperCase()} PFA`,
      activity: null,
      codes: data.map((code, i) => ({ ...code, is_primary: i === 0 ? 1 : 0 })),
      email: 'ion.popescu@exemplu.ro',
      phone: '0712345678',
      editable: !dossierSent,
    };
  };
  return {
    ...real,
    identity,
    dossier: {
      ...real.dossier,
      deleteSignature: async () => undefined,
      saveMailingAddress: async (values) => ({ ...values, county_id: values.county_id ?? 0, city_id: values.city_id ?? 0, county: '', city: '' }),
      deleteDocument: async () => undefined,
      acknowledgeAttorney: async () => undefined,
    },
    caen: {
      ...real.caen,
      overview,
      updateFormData: async (values) => {
        const { codes: _codes, ...fields } = values;
        profile = { ...profile, ...fields };
        return { profile, codes: (await overview()).codes };
      },
      markAsLost: async () => undefined,
    },
    reloadPage: () => undefined,
  };
}
