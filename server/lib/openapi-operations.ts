/**
 * What the OpenAPI document (GET /api/docs/json) says of each operation besides its schemas: a
 * stable camelCase `operationId` (client generators name their functions by it: the browser's
 * types in src/core/api-schema.d.ts and the operator command's calls do), a short English
 * `summary`, one tag by area and who may call it (`security`). The docs plugin applies it when it
 * builds the document (server/plugins/docs.ts), so the route files stay as they are.
 *
 * One row per route the document shows (not the HEAD copies, not a route with `schema.hide`), by
 * "METHOD /url" as registered; the registration steps' routes come from the flow files
 * (`flowOperations`: a step's submit is named by its step id). tests/server/openapi-operations.test.ts
 * fails for a route without a row and for a row without a route: a new route needs its row here.
 */
import { routedStepVersions, type Flow } from '../../src/core/flow';

/** The document's tags: every operation has one. */
export const TAGS = [
  { name: 'Accounts', description: 'Sign-up, sign-in and sign-out, password and e-mail links, the signed-in user.' },
  { name: 'Registration', description: "The applicant's registration request: its steps (from the flow files), documents and overview." },
  { name: 'Identity', description: 'The identity check (Veriff or the built-in provider) and its photos.' },
  { name: 'Payment', description: 'The subscription payment: the payment page, the webhook, the built-in checkout.' },
  { name: 'Nomenclature', description: 'Lists the forms choose from: counties, cities, activities, CAEN codes, partners, offices.' },
  { name: 'Privacy', description: "The applicant's data: consents, the export, the erasure, unsubscribing." },
  { name: 'Staff', description: 'The staff console: sign-in, dossiers, the audit log, the flow preview.' },
  { name: 'Operator', description: 'The operator command (`npm run ops`): dossiers, staff accounts, erasure, retention. Needs the ops token and `X-Ops-Actor`.' },
  { name: 'Health', description: 'Liveness and readiness for the load balancer and the orchestrator.' },
  { name: 'Pages', description: 'Server-rendered pages and the public settings of the browser app.' },
  { name: 'Development', description: 'Outside production only, from this machine: the mail outbox and the simulated payment.' },
] as const;

export type Tag = (typeof TAGS)[number]['name'];

/** Who may call an operation: anyone, a signed-in applicant, a staff member, the operator command. */
export type Access = 'public' | 'applicant' | 'staff' | 'operator';

export interface OperationInfo {
  operationId: string;
  summary: string;
  tag: Tag;
  access: Access;
}

/** The document's security schemes, one per kind of caller (all bearer tokens, kept apart by the server). */
export const SECURITY_SCHEMES = {
  applicant: { type: 'http', scheme: 'bearer', description: "An applicant's access token (`access_token` of POST /api/login, /api/register, /api/auto-login)." },
  staff: { type: 'http', scheme: 'bearer', description: 'A staff session (POST /api/staff/login); an applicant token is refused.' },
  operator: { type: 'http', scheme: 'bearer', description: 'The ops token (OPS_TOKEN, else DATA_DIR/ops-token); every call also names its operator in `X-Ops-Actor`.' },
} as const;

/** The `security` of an operation: none for a public one. */
export function securityOf(access: Access): Record<string, string[]>[] {
  return access === 'public' ? [] : [{ [access]: [] }];
}

type Row = [operationId: string, summary: string, access: Access];

/** Rows of one tag. */
const area = (tag: Tag, rows: Record<string, Row>): [string, OperationInfo][] =>
  Object.entries(rows).map(([route, [operationId, summary, access]]) => [route, { operationId, summary, tag, access }]);

/** Every route but the registration steps', by "METHOD /url". */
export const OPERATIONS: ReadonlyMap<string, OperationInfo> = new Map([
  ...area('Accounts', {
    'POST /api/login': ['login', 'Sign in with e-mail and password', 'public'],
    'POST /api/auth': ['authenticateForPartner', "Sign in for a partner's site and get its redirect address", 'public'],
    'POST /api/auto-login': ['autoLogin', 'Sign in with a one-time link token', 'public'],
    'POST /api/logout': ['logout', 'Sign out (the access token ends)', 'applicant'],
    'POST /api/register': ['register', 'Create an account and its registration request', 'public'],
    'POST /api/password/forgot': ['forgotPassword', 'Mail a password reset link', 'public'],
    'POST /api/password/reset/:token': ['resetPassword', "Set a new password with the reset link's token", 'public'],
    'GET /api/email/verify/:token': ['verifyEmail', "Confirm the account's e-mail address", 'public'],
    'GET /sso/:token': ['singleSignOn', 'Sign in through a one-time link and go to the app', 'public'],
    'GET /api/user/dashboard-redirect': ['getDashboardRedirect', 'Whether the applicant goes to the dashboard', 'applicant'],
    'PUT /api/user/language': ['setUserLanguage', "Save the applicant's language", 'applicant'],
    'GET /api/user/auto-login-link': ['getAutoLoginLink', 'A one-time sign-in link (to continue on a phone)', 'applicant'],
  }),
  ...area('Registration', {
    'POST /api/registration/delete/diploma-documents': ['deleteDiplomaDocument', 'Delete an uploaded diploma or licence document', 'applicant'],
    'POST /api/user-meta/attorney-acknowledgement': ['acknowledgeAttorney', 'Record that the applicant read the power of attorney', 'applicant'],
    'POST /api/registration/delete/signature': ['deleteSignature', 'Delete the saved signature (new PFA)', 'applicant'],
    'POST /api/registration/existing/delete/signature': ['deleteExistingSignature', 'Delete the saved signature (existing PFA)', 'applicant'],
    'POST /api/mark-as-lost': ['markAsLost', 'Leave the flow with a reason (a lost application)', 'applicant'],
    'POST /api/mark-as-unlost': ['markAsUnlost', 'Come back to the flow after leaving it', 'applicant'],
    'POST /api/mailing-address': ['saveMailingAddress', 'Save the mailing address', 'applicant'],
    'POST /api/registration/update-user-info': ['updateUserInfo', "Save the applicant's personal details", 'applicant'],
    'GET /api/registration/overview': ['getOverview', 'What the overview step shows', 'applicant'],
    'POST /api/registration/update/form-data': ['updateOverviewFormData', 'Change answers from the overview step', 'applicant'],
    'GET /api/registration/download/tradeRegisterDocuments': ['downloadTradeRegisterDocuments', "The trade register's documents as a ZIP file", 'applicant'],
    'GET /api/files/:id': ['getFile', 'One of the applicant’s stored files', 'applicant'],
  }),
  ...area('Identity', {
    'POST /api/veriff/create-veriff-session': ['createIdentitySession', 'Start an identity check session', 'applicant'],
    'POST /api/veriff/upload-image': ['uploadIdentityImage', 'Upload a photo of the identity check', 'applicant'],
    'PATCH /api/veriff/submit-session': ['submitIdentitySession', 'Send the identity check for a decision', 'applicant'],
    'GET /api/veriff/verify-veriff-session': ['verifyIdentitySession', 'The decision of an identity check session', 'applicant'],
    'GET /api/veriff/get-last-session': ['getLastIdentitySession', "The applicant's last identity check session", 'applicant'],
    'GET /api/veriff/get-veriff-error': ['getIdentityError', 'Why an identity check failed', 'applicant'],
    'DELETE /api/veriff/delete-session': ['deleteIdentitySession', 'Delete an identity check session and its photos', 'applicant'],
    'POST /api/veriff/decision-webhook': ['receiveVeriffDecision', "Veriff's decision on a session (signed with X-HMAC-SIGNATURE)", 'public'],
    'POST /api/registration/delete/identity-document': ['deleteIdentityDocument', 'Delete the identity photos (new PFA)', 'applicant'],
    'POST /api/registration/existing/delete/identity-document': ['deleteExistingIdentityDocument', 'Delete the identity photos (existing PFA)', 'applicant'],
  }),
  ...area('Payment', {
    'POST /api/stripe/redirect': ['createPaymentRedirect', 'Start paying a subscription: where the browser goes', 'applicant'],
    'POST /api/stripe/webhook': ['receiveStripeEvent', "Stripe's payment events (signed with Stripe-Signature)", 'public'],
    'GET /api/checkout/:id': ['getCheckout', 'A payment of the built-in checkout', 'applicant'],
    'POST /api/checkout/:id/pay': ['payCheckout', 'Pay with the built-in checkout', 'applicant'],
    'POST /api/checkout/:id/cancel': ['cancelCheckout', 'Cancel a payment of the built-in checkout', 'applicant'],
  }),
  ...area('Nomenclature', {
    'GET /api/nomenclature/county/index/:offset/:limit': ['listCounties', 'Counties, by name', 'public'],
    'GET /api/nomenclature/city/index/:offset/:limit': ['listCities', "A county's localities, by name", 'public'],
    'GET /api/nomenclature/activity/index': ['listActivities', 'The activities a PFA can be registered for', 'public'],
    'GET /api/nomenclature/marital-status/index': ['listMaritalStatuses', 'Marital statuses', 'public'],
    'GET /api/nomenclature/lost-reasons/index': ['listLostReasons', 'Why an applicant leaves the flow', 'public'],
    'GET /api/nomenclature/icredit-office/index': ['listCreditOffices', "The credit partner's branch offices", 'public'],
    'GET /api/nomenclature/code/index/:offset/:size': ['listCaenCodes', 'CAEN codes, searchable', 'public'],
    'GET /api/nomenclature/office-services': ['listOfficeServices', 'Services offered instead of the product', 'public'],
    'GET /api/partner/index': ['listPartners', 'Partners and their plans with prices', 'public'],
  }),
  ...area('Privacy', {
    'GET /api/user/export': ['exportUserData', "The applicant's data as a ZIP file", 'applicant'],
    'GET /api/user/privacy': ['getUserPrivacy', 'Consents, retention periods and what an erasure keeps', 'applicant'],
    'DELETE /api/user/consents/marketing': ['withdrawMarketingConsent', 'Withdraw the marketing consent', 'applicant'],
    'DELETE /api/user': ['deleteAccount', 'Erase the account and its data', 'applicant'],
    'POST /api/unsubscribe': ['unsubscribe', 'Stop marketing mails (the link in a mail)', 'public'],
  }),
  ...area('Staff', {
    'POST /api/staff/login': ['staffLogin', 'Staff sign-in', 'public'],
    'POST /api/staff/logout': ['staffLogout', 'Staff sign-out', 'staff'],
    'GET /api/staff/me': ['getStaffMember', 'The signed-in staff member', 'staff'],
    'GET /api/staff/timeline-types': ['listStaffTimelineTypes', 'Status timeline item types and their fields', 'staff'],
    'GET /api/staff/dossiers': ['listStaffDossiers', 'Dossiers, filtered and paged', 'staff'],
    'GET /api/staff/dossiers/:id': ['getStaffDossier', 'One dossier with its timeline, payments and documents', 'staff'],
    'GET /api/staff/dossiers/:id/files/:fileId': ['getStaffDossierFile', 'A file of a dossier', 'staff'],
    'POST /api/staff/dossiers/:id/timeline': ['addStaffTimelineItem', 'Add a status timeline item', 'staff'],
    'POST /api/staff/dossiers/:id/documents': ['attachStaffTradeRegisterDocuments', "Attach the trade register's documents", 'staff'],
    'POST /api/staff/dossiers/:id/finalize': ['finalizeStaffDossier', 'Mark the dossier finalized', 'staff'],
    'POST /api/staff/dossiers/:id/reject': ['rejectStaffDossier', 'Mark the dossier rejected', 'staff'],
    'POST /api/staff/dossiers/:id/missing-documents': ['askStaffMissingDocuments', 'Mail the applicant which documents are missing', 'staff'],
    'GET /api/staff/dossiers/:id/audit': ['getStaffDossierAudit', "A dossier's audit log", 'staff'],
    'GET /api/staff/audit.csv': ['exportStaffAudit', 'The audit log as CSV', 'staff'],
    'GET /api/staff/preview': ['getStaffPreview', 'The preview folder’s flow files and their checks', 'staff'],
    'POST /api/staff/preview/validate': ['validateStaffPreview', 'Check a flow file of the preview folder', 'staff'],
  }),
  ...area('Operator', {
    'GET /api/ops/dossiers': ['listOpsDossiers', 'Dossiers, newest first', 'operator'],
    'GET /api/ops/dossiers/:dossier': ['getOpsDossier', 'One dossier with its timeline, payments and documents', 'operator'],
    'GET /api/ops/dossiers/:dossier/signed-documents/:id': ['downloadOpsSignedDocument', 'A PDF the applicant signed', 'operator'],
    'POST /api/ops/dossiers/:dossier/timeline': ['addOpsTimelineItem', 'Add a status timeline item', 'operator'],
    'POST /api/ops/dossiers/:dossier/documents': ['attachOpsTradeRegisterDocuments', "Attach the trade register's documents", 'operator'],
    'POST /api/ops/dossiers/:dossier/finalize': ['finalizeOpsDossier', 'Mark the dossier finalized', 'operator'],
    'POST /api/ops/dossiers/:dossier/reject': ['rejectOpsDossier', 'Mark the dossier rejected', 'operator'],
    'POST /api/ops/dossiers/:dossier/missing-documents': ['askOpsMissingDocuments', 'Mail the applicant which documents are missing', 'operator'],
    'POST /api/ops/staff': ['createOpsStaffAccount', 'Create a staff account', 'operator'],
    'POST /api/ops/files/reencrypt': ['reencryptOpsFiles', 'Encrypt or rewrap the stored files now', 'operator'],
    'POST /api/ops/users/erase': ['eraseOpsUser', 'What erasing an account removes and keeps; erase it', 'operator'],
    'POST /api/ops/retention': ['runOpsRetention', 'Run the retention job now', 'operator'],
  }),
  ...area('Health', {
    'GET /api/health': ['getHealth', 'Whether the server answers', 'public'],
    'GET /api/health/live': ['getLiveness', 'Liveness: the process runs', 'public'],
    'GET /api/health/ready': ['getReadiness', 'Readiness: the database and Redis answer', 'public'],
  }),
  ...area('Pages', {
    'GET /api/config': ['getPublicConfig', 'Public settings of the browser app', 'public'],
    'GET /termeni': ['getTermsPage', 'The terms and conditions page', 'public'],
    'GET /confidentialitate': ['getPrivacyPolicyPage', 'The privacy policy page', 'public'],
  }),
  ...area('Development', {
    'GET /api/dev/outbox': ['listOutbox', 'The mails sent, newest first', 'public'],
    'POST /api/stripe/pay/simulate': ['simulatePayment', 'Pay without a card (simulated payments only)', 'applicant'],
  }),
]);

/** `requesting-company-step-2` → `RequestingCompanyStep2`. */
export function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

/**
 * The registration routes each flow file makes (server/routes/registration.ts): its request
 * (`api.open`), the steps back and forward, and each step's submit, named by the step's id (and
 * the variant's, for an endpoint only a variant has).
 */
export function flowOperations(flows: readonly Flow[]): Map<string, OperationInfo> {
  const operations = new Map<string, OperationInfo>();
  const add = (route: string, operationId: string, summary: string) => {
    if (!operations.has(route)) operations.set(route, { operationId, summary, tag: 'Registration', access: 'applicant' });
  };
  for (const flow of flows) {
    const name = pascalCase(flow.id);
    add(`GET ${flow.api.open}`, `get${name}Request`, `The registration request (${flow.id} flow), opened if needed`);
    add(`POST ${flow.api.previous}`, `previous${name}Step`, `Go back one step (${flow.id} flow)`);
    add(`POST ${flow.api.next}`, `next${name}Step`, `Go forward over a step already answered (${flow.id} flow)`);
    // The versions the step routes are made from (server/registration/step-endpoints.ts): each
    // endpoint is named after the first version that sends to it.
    for (const { step, variant } of routedStepVersions(flow)) {
      const endpoint = step.submit?.endpoint;
      if (!endpoint) continue;
      const stepName = step.name?.split('.').pop() ?? step.id;
      add(
        `POST ${endpoint}`,
        `submit${pascalCase(step.id)}${variant ? pascalCase(variant) : ''}`,
        `Submit the ${stepName} step (${step.id}${variant ? `, ${variant} variant` : ''})`,
      );
    }
  }
  return operations;
}

/** Every route's operation, by "METHOD /url": the table above and the flows' routes. */
export function operationTable(flows: readonly Flow[]): Map<string, OperationInfo> {
  return new Map([...OPERATIONS, ...flowOperations(flows)]);
}
