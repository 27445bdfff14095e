import { CONTEXT_NAMES } from '../identity/types';
import type { Messages, PhasesText } from './ro';

/** The server's English texts: the same shape as ./ro.ts (nomenclature names stay Romanian). */
export const en: Messages = {
  locale: 'en-GB',
  languageSaved: 'The language was saved.',
  envelope: {
    invalid: 'The data sent is not valid.',
    generic: 'Something went wrong. Please try again.',
    unauthorized: 'Your session has expired. Please sign in again.',
    forbidden: 'You do not have access to this resource.',
    notFound: 'The resource was not found.',
    request: {
      400: 'The request cannot be read.',
      413: 'The data sent is too large.',
      415: 'This type of data is not accepted.',
    },
  },
  validation: {
    required: () => 'This field is required.',
    format: (p) => (p.format === 'email' ? 'The e-mail address is not valid.' : 'The format is not valid.'),
    minLength: (p) => (p.limit === 1 ? 'This field is required.' : `This field must have at least ${String(p.limit)} characters.`),
    maxLength: (p) => `This field can have at most ${String(p.limit)} characters.`,
    pattern: () => 'The format is not valid.',
    type: () => 'The value is not valid.',
    enum: () => 'The value is not valid.',
    const: () => 'The value is not valid.',
    minimum: (p) => `The value must be at least ${String(p.limit)}.`,
    maximum: (p) => `The value can be at most ${String(p.limit)}.`,
    maxItems: (p) => `At most ${String(p.limit)} items are allowed.`,
    additionalProperties: () => 'Unknown field.',
    other: () => 'The value is not valid.',
  },
  fields: {
    email: { required: 'The e-mail address is required.', minLength: 'The e-mail address is required.' },
    phone: {
      required: 'The phone number is required.',
      pattern: 'The phone number must have the format 07xxxxxxxx.',
    },
    password: { required: 'The password is required.', minLength: 'The password must have at least 6 characters.' },
    password_confirmation: { required: 'Confirm the password.' },
    marketing_accepted: {
      required: 'You must accept the terms and conditions.',
      const: 'You must accept the terms and conditions.',
      type: 'You must accept the terms and conditions.',
    },
    partner_id: { required: 'Choose the subscription type.', type: 'Choose the subscription type.' },
    registration_type: { required: 'Choose the registration type.', enum: 'Choose the registration type.' },
    callbackUrl: { required: 'The return address is missing.' },
    county_id: { required: 'Choose the county.', type: 'Choose the county.', minimum: 'Choose the county.' },
    city_id: { required: 'Choose the locality.', type: 'Choose the locality.', minimum: 'Choose the locality.' },
    postal_code: { pattern: 'The postal code has 6 digits.' },
    context: { enum: 'The type of photo is not known.' },
    activity_details: {
      required: 'Briefly describe the activity you will carry out.',
      pattern: 'Briefly describe the activity you will carry out.',
      type: 'Briefly describe the activity you will carry out.',
    },
  },
  mail: {
    layout: {
      unsubscribeQuestion: 'No more notifications?',
      unsubscribe: 'Unsubscribe',
      copyAddress: 'If the button does not work, copy the address:',
    },
    verify: {
      subject: (product) => `Confirm your e-mail address for ${product}`,
      lines: (product) => [`Welcome to ${product}!`, 'Please confirm your e-mail address by pressing the button below.'],
      button: 'Confirm your e-mail address',
      textLink: 'Confirm the address',
    },
    reset: {
      subject: (product) => `Reset the password of your ${product} account`,
      lines: (ttlMinutes) => [
        'We received a request to reset the password of your account.',
        `The link is valid for ${ttlMinutes} minutes and can be used only once. If you did not ask for a reset, ignore this message.`,
      ],
      button: 'Reset the password',
      textLink: 'Reset the password',
    },
    accountErased: {
      subject: (product) => `Your ${product} account has been erased`,
      intro: {
        applicant: 'Your account and its data have been erased, as you asked.',
        operator: 'Your account and its data have been erased, following your written request.',
        retention: (days) =>
          `Your account and its data have been erased: your application was not finished and you had not signed in for over ${days} days, as we told you by e-mail. We do not keep personal data longer than needed.`,
      },
      kept: 'We keep only what the law requires, apart, and only as long as the law requires:',
      nothingKept: 'We kept none of your data.',
      outro: 'There is nothing more to do. If you did not ask for the erasure, write to the contact address on our site.',
      keptPayment: (count, until) => `the payment records (${count}), until ${until}, under the Romanian accounting law (Law 82/1991);`,
      keptContract: (until) => `the signed legal-assistance contract, until ${until}, while its obligations bind us;`,
      keptTradeRegister: 'the dossier already filed with the Trade Register stays there, in the public register, as the law says.',
      button: 'Privacy policy',
      textLink: 'Privacy policy',
    },
    retentionWarning: {
      subject: (product) => `Your ${product} account will be erased soon`,
      lines: (product, date) => [
        `You have not signed in to your ${product} account for a long time, and your application is not finished.`,
        `So as not to keep your personal data longer than needed, we will erase the account and all the application's data after ${date}.`,
        'If you want to keep them, sign in before that date: your application waits where you left it.',
      ],
      data: 'You can see, download or erase your data at any time on the "Your data" page:',
      button: 'Sign in',
      textLink: 'Sign in',
    },
    missingDocuments: {
      subject: (product) => `Missing documents for your ${product} dossier`,
      intro: 'To go on with your dossier we need a few more documents:',
      outro: 'Please sign in to your account and send them.',
      textLink: 'Your dossier',
      button: 'Open your dossier',
    },
    receipt: {
      subject: (product) => `Payment received – ${product}`,
      thanks: 'Your payment was received. Thank you!',
      amount: 'Amount',
      date: 'Date',
      item: 'For',
      terms: 'Subscription',
      reference: 'Payment reference',
      textLink: 'Status of your dossier',
      button: 'See the status of your dossier',
      subscription: (product, partner) => `${product} subscription – ${partner}`,
      phases: ({ intro, then, unit, interval, n }: PhasesText) => {
        const per = interval === 'year' ? 'year' : 'month';
        const span = interval === 'year' ? (n === 1 ? 'for the first year' : `for the first ${n} years`) : n === 1 ? 'for the first month' : `for the first ${n} months`;
        return `${intro} ${unit}/${per} ${span}, then ${then} ${unit}/${per}`;
      },
    },
  },
  byRomanian: {
    // Accounts, sign-in, password (server/routes/accounts.ts, password.ts, lib/rate-limits.ts)
    'Te-ai autentificat.': 'You are signed in.',
    'Te-ai deconectat.': 'You are signed out.',
    'Contul a fost creat.': 'Your account was created.',
    'Datele de autentificare sunt incorecte.': 'The sign-in details are incorrect.',
    'Adresa de întoarcere nu este permisă.': 'The return address is not allowed.',
    'Linkul de autentificare a expirat sau a fost deja folosit.': 'The sign-in link has expired or was already used.',
    'Linkul de resetare a expirat sau a fost deja folosit. Cere unul nou.': 'The reset link has expired or was already used. Ask for a new one.',
    'Tipul de abonament ales nu există.': 'The chosen subscription type does not exist.',
    'Există deja un cont cu această adresă de e-mail.': 'There is already an account with this e-mail address.',
    'Dacă adresa are un cont, ți-am trimis pe e-mail un link de resetare a parolei.':
      'If the address has an account, we have e-mailed you a link to reset the password.',
    'Parola a fost schimbată. Te poți autentifica cu noua parolă.': 'Your password was changed. You can sign in with the new password.',
    'Parolele nu coincid.': 'The passwords do not match.',
    'Prea multe încercări de autentificare. Te rugăm să încerci din nou peste câteva minute.':
      'Too many sign-in attempts. Please try again in a few minutes.',
    'Prea multe încercări. Te rugăm să încerci din nou peste câteva minute.': 'Too many attempts. Please try again in a few minutes.',
    'Serviciul nu este disponibil acum. Te rugăm să încerci din nou peste câteva minute.':
      'The service is not available right now. Please try again in a few minutes.',
    'Cererea nu este permisă.': 'The request is not allowed.',
    'Corpul cererii nu este JSON valid.': 'The body of the request is not valid JSON.',
    'Textul conține caractere nepermise.': 'The text contains characters that are not allowed.',
    // Steps (server/routes/registration.ts, server/registration/)
    'Câmpul este obligatoriu.': 'This field is required.',
    'Completează pasul curent pentru a merge mai departe.': 'Complete the current step to go on.',
    'Dosarul a fost modificat între timp. Încearcă din nou.': 'The dossier was changed in the meantime. Try again.',
    'Acest pas se încheie cu plata: alege abonamentul și plătește pentru a merge mai departe.':
      'This step ends with the payment: choose the subscription and pay to go on.',
    'Abonamentul tău este deja plătit.': 'Your subscription is already paid.',
    'Alege unul dintre abonamentele afișate.': 'Choose one of the subscriptions shown.',
    'Alege una dintre opțiuni.': 'Choose one of the options.',
    'Opțiune necunoscută.': 'Unknown option.',
    'Cu aceste opțiuni nu poți continua. „Niciuna dintre acestea” nu se poate bifa împreună cu alte opțiuni.':
      'You cannot go on with these options. “None of these” cannot be ticked together with other options.',
    'Alege o activitate din listă.': 'Choose an activity from the list.',
    'Opțiunea „Nu am permis de conducere” este disponibilă doar pentru curieri.': 'The option “I have no driving licence” is only available for couriers.',
    'Alege mai întâi județul.': 'Choose the county first.',
    'Județul ales nu există.': 'The chosen county does not exist.',
    'Alege o sucursală din listă.': 'Choose a branch from the list.',
    'Sucursala aleasă nu este în județul ales.': 'The chosen branch is not in the chosen county.',
    'Codul poștal are 6 cifre.': 'The postal code has 6 digits.',
    'Adresa de corespondență a fost salvată.': 'The mailing address was saved.',
    'Salvează mai întâi adresa de corespondență.': 'Save the mailing address first.',
    'Nu avem adresa din buletinul tău. Alege „altă adresă de corespondență” și completeaz-o.':
      'We do not have the address on your identity card. Choose “another mailing address” and fill it in.',
    'Codul fiscal (CUI/CIF) are între 2 și 10 cifre, cu sau fără „RO” în față.':
      'The fiscal code (CUI/CIF) has 2 to 10 digits, with or without “RO” in front.',
    'Cifra de control a CUI-ului nu este corectă. Verifică dacă ai scris codul fiscal corect.':
      'The check digit of the CUI is not correct. Check that you wrote the fiscal code correctly.',
    'Nu am găsit nicio firmă cu acest CUI. Verifică dacă l-ai scris corect.': 'We found no company with this CUI. Check that you wrote it correctly.',
    'Nu am găsit încă firma ta. Întoarce-te la pasul anterior și introdu codul fiscal.':
      'We have not found your company yet. Go back to the previous step and enter the fiscal code.',
    'Numărul de telefon trebuie să aibă formatul 07xxxxxxxx.': 'The phone number must have the format 07xxxxxxxx.',
    // Files, documents, signature
    'Fișierul poate avea cel mult 10 MB.': 'The file can be at most 10 MB.',
    'Poți trimite cel mult 10 fișiere odată.': 'You can send at most 10 files at once.',
    'Formularul trimis are prea multe câmpuri.': 'The form sent has too many fields.',
    'Formatul sau dimensiunea documentului încărcat nu sunt acceptate.': 'The format or size of the uploaded document is not accepted.',
    'Încarcă cel puțin un document sau alege altă opțiune.': 'Upload at least one document or choose another option.',
    'Încarcă cel puțin un document sau alege „Trimit mai târziu”.': 'Upload at least one document or choose “I will send it later”.',
    'Documentul a fost șters.': 'The document was deleted.',
    'Documentul nu a fost găsit.': 'The document was not found.',
    'Eroare la ștergerea imaginii!': 'The image could not be deleted!',
    'Semnează în chenar înainte de a merge mai departe.': 'Sign in the box before going on.',
    'Semnătura a fost ștearsă.': 'The signature was deleted.',
    'Semnătura poate avea cel mult 2 MB.': 'The signature can be at most 2 MB.',
    'Semnătura trebuie să fie o imagine PNG.': 'The signature must be a PNG image.',
    'Fișierul nu a fost găsit.': 'The file was not found.',
    'Fișierul nu a putut fi salvat acum. Te rugăm să încerci din nou peste câteva minute.':
      'The file could not be saved right now. Please try again in a few minutes.',
    // Identity check (server/identity/service.ts, server/files/files.ts)
    'Sesiunea de verificare nu a fost găsită.': 'The verification session was not found.',
    'Nu s-a putut iniția sesiunea de verificare. Te rugăm să încerci din nou.': 'The verification session could not be started. Please try again.',
    'Identitatea ta a fost deja verificată.': 'Your identity has already been verified.',
    'Trimiterea pentru verificare a eșuat. Te rugăm să încerci din nou.': 'Sending for verification failed. Please try again.',
    'Fotografiile au fost deja trimise pentru verificare. Pentru fotografii noi, șterge sesiunea și reîncepe procesul.':
      'The photos were already sent for verification. For new photos, delete the session and start again.',
    'Verificarea acestei sesiuni s-a încheiat. Pentru fotografii noi, șterge sesiunea și reîncepe procesul.':
      'The verification of this session has ended. For new photos, delete the session and start again.',
    'Încarcă toate cele trei fotografii înainte de a trimite.': 'Upload all three photos before sending.',
    'Fotografia trebuie să fie JPEG, PNG, HEIC/HEIF sau WebP.': 'The photo must be JPEG, PNG, HEIC/HEIF or WebP.',
    'Trimite o singură fotografie odată.': 'Send one photo at a time.',
    'Sesiunea de verificare a fost ștearsă.': 'The verification session was deleted.',
    'Imaginea nu poate fi citită. Te rugăm să încarci o fotografie JPG, PNG, WebP sau HEIC.': 'The image cannot be read. Please upload a JPG, PNG, WebP or HEIC photo.',
    // Overview, status, payment, other
    'Informațiile au fost modificate.': 'The details were changed.',
    'Poate conține doar litere, spații, cratime și apostrof (cel mult 60 de caractere).':
      'It can contain only letters, spaces, hyphens and apostrophes (at most 60 characters).',
    'CNP-ul trebuie să aibă exact 13 cifre.': 'The CNP must have exactly 13 digits.',
    'CNP-ul nu conține o dată de naștere validă.': 'The CNP does not contain a valid date of birth.',
    'Un cod CAEN nu poate fi ales de două ori.': 'A CAEN code cannot be chosen twice.',
    'Codul CAEN ales nu există.': 'The chosen CAEN code does not exist.',
    'Codul CAEN principal nu poate fi șters; îl poți înlocui cu altul.': 'The main CAEN code cannot be deleted; you can replace it with another.',
    'Codurile CAEN vor fi stabilite de colegii noștri pe baza activității descrise.': 'Our colleagues will set the CAEN codes from the activity you described.',
    'Acest pas a fost deja trimis. Te ducem la pasul la care ai rămas.': 'This step was already sent. We are taking you to the step you are at.',
    'Semnătura salvată nu poate fi aplicată pe documente. Te rugăm să revii la pasul „Semnătură” și să semnezi din nou.':
      'The saved signature cannot be applied to the documents. Please go back to the “Signature” step and sign again.',
    'Serverul este foarte aglomerat acum. Te rugăm să încerci din nou peste câteva secunde.': 'The server is very busy right now. Please try again in a few seconds.',
    'Documentele de la Registrul Comerțului nu sunt încă disponibile.': 'The documents from the Trade Register are not available yet.',
    'Introdu cel puțin 3 caractere.': 'Enter at least 3 characters.',
    'Alege câmpul de modificat.': 'Choose the field to change.',
    'Pagina cerută nu există.': 'The requested page does not exist.',
    'Plata nu a fost găsită.': 'The payment was not found.',
    'Această plată a fost anulată. Alege din nou abonamentul pentru a plăti.': 'This payment was cancelled. Choose the subscription again to pay.',
    'Această plată a fost deja făcută.': 'This payment has already been made.',
    'Motiv necunoscut.': 'Unknown reason.',
    // The identity step's field error (server/identity/queries.ts STEP_MESSAGES), the address's place (server/lib/places.ts)
    'Încarcă cele trei fotografii și trimite-le pentru verificare.': 'Upload the three photos and send them for verification.',
    'Verificarea identității este în curs. Te rugăm să aștepți rezultatul.': 'The identity check is under way. Please wait for the result.',
    'Verificarea a fost respinsă. Șterge sesiunea și reîncepe procesul.': 'The check was rejected. Delete the session and start again.',
    'Avem nevoie de adresa ta de domiciliu': 'We need your home address',
    'Localitatea aleasă nu există.': 'The chosen locality does not exist.',
    'Localitatea aleasă nu este în județul ales.': 'The chosen locality is not in the chosen county.',
    // The staff console (server/plugins/staff-auth.ts, server/routes/staff-dossiers.ts, server/staff/dossier-actions.ts,
    // server/registration/timeline.ts) and the flow preview (server/routes/staff-preview.ts)
    'Sesiunea de personal a expirat sau lipsește. Te rugăm să te autentifici din nou.': 'The staff session has expired or is missing. Please sign in again.',
    'Contul tău de personal nu are acces la această pagină.': 'Your staff account has no access to this page.',
    'Dosarul nu a fost găsit.': 'The dossier was not found.',
    'Fișierul nu aparține acestui dosar.': 'The file does not belong to this dossier.',
    'Fluxul nu există.': 'The flow does not exist.',
    'Scrie ce documente lipsesc (cel mult 2000 de caractere).': 'Write which documents are missing (at most 2000 characters).',
    'Elementul a fost adăugat în istoricul dosarului.': 'The item was added to the dossier’s history.',
    'Documentele au fost atașate dosarului.': 'The documents were attached to the dossier.',
    'Dosarul a fost finalizat.': 'The dossier was finalized.',
    'Dosarul a fost respins.': 'The dossier was rejected.',
    'Mesajul către solicitant a fost pus în coada de trimitere.': 'The message to the applicant was queued for sending.',
    'Un fișier poate avea cel mult 20 MB.': 'A file can be at most 20 MB.',
    'Poți trimite cel mult 20 fișiere odată.': 'You can send at most 20 files at once.',
    'Tipul trebuie să fie unul dintre: document_review, name_reservation, submitted, delayed, rejected, finalized.':
      'The type must be one of: document_review, name_reservation, submitted, delayed, rejected, finalized.',
    'Valoarea trebuie să fie true sau false.': 'The value must be true or false.',
    'Data trebuie să fie o zi din calendar, în formatul AAAA-LL-ZZ.': 'The date must be a calendar day, in the format YYYY-MM-DD.',
    'Denumirea este obligatorie (cel mult 200 de caractere).': 'The name is required (at most 200 characters).',
    'Datele elementului de status nu sunt valide.': 'The status item’s data is not valid.',
    'Dosarul este deja finalizat.': 'The dossier is already finalized.',
    'Dosarul este deja respins.': 'The dossier is already rejected.',
    'Statusul și documentele de la Registrul Comerțului există doar pentru dosarele de înființare PFA (tipul 2).':
      'The status and the Trade Register documents exist only for new-PFA dossiers (type 2).',
    'Alege cel puțin un fișier.': 'Choose at least one file.',
    'Fișierul este gol.': 'The file is empty.',
    'Fișierul de flux nu există sau nu poate fi citit.': 'The flow file does not exist or cannot be read.',
    'Partener necunoscut.': 'Unknown partner.',
    'Pasul nu există în acest flux.': 'The step does not exist in this flow.',
    'Pasul nu trimite la această adresă.': 'The step does not submit to this address.',
    'Alege regimul matrimonial.': 'Choose the matrimonial regime.',
    'Semnătura cererii nu este validă.': 'The request’s signature is not valid.',
    // The applicant's data (server/routes/user-export.ts, user-privacy.ts, server/privacy/erase.ts)
    'Ai cerut deja exportul datelor de mai multe ori în ultima oră. Încearcă din nou mai târziu.':
      'You have already asked for the export of your data several times in the last hour. Please try again later.',
    'Contul tău a fost șters. Ți-am trimis un e-mail de confirmare.': 'Your account was erased. We have sent you a confirmation e-mail.',
    'Parola nu este corectă.': 'The password is not correct.',
    'Prea multe încercări cu o parolă greșită. Te rugăm să încerci din nou peste câteva minute.': 'Too many attempts with a wrong password. Please try again in a few minutes.',
    'Nu vei mai primi comunicări de marketing de la noi.': 'You will no longer receive marketing communications from us.',
    'Abonamentul tău nu a putut fi oprit acum, așa că nu am șters contul (nu vrem să fii facturat pentru un cont care nu mai există). Te rugăm să încerci din nou peste câteva minute.':
      'Your subscription could not be stopped right now, so we did not erase the account (we do not want you to be billed for an account that no longer exists). Please try again in a few minutes.',
    // Payments (server/routes/payment.ts)
    'Plata simulată nu este disponibilă: plățile trec prin Stripe.': 'The simulated payment is not available: payments go through Stripe.',
    'Semnătura evenimentului nu este validă.': 'The event’s signature is not valid.',
    'Abonamentul nu a putut fi programat la procesatorul de plăți; reîncercăm la următoarea livrare a evenimentului.':
      'The subscription could not be scheduled with the payment processor; we will retry at the next delivery of the event.',
  },
  byPattern: [
    // server/registration/timeline.ts
    [/^Câmpul nu aparține tipului „(.+)”\.$/, (type) => `The field does not belong to the type “${type}”.`],
    // server/identity/service.ts (the photo's Romanian name: server/identity/types.ts CONTEXT_NAMES)
    [/^Încărcarea pentru (.+) a eșuat\. Te rugăm să încerci din nou\.$/, (photo) => `The upload of ${photoName(photo)} failed. Please try again.`],
    [/^Încarcă mai întâi (.+)\.$/, (photo) => `Upload ${photoName(photo)} first.`],
    [/^Fotografia poate avea cel mult (.+)\.$/, (size) => `The photo can be at most ${size}.`],
    // server/registration/company.ts
    [
      /^(.+) este doar pentru PFA-uri \(persoane fizice autorizate\), iar acest CUI aparține unei firme de tip (.+) \((.+)\)\.$/,
      (product, form, name) => `${product} is only for PFAs (authorised natural persons), and this CUI belongs to a company of type ${form} (${name}).`,
    ],
    [
      /^(.+) este doar pentru PFA-uri \(persoane fizice autorizate\), iar acest CUI \((.+)\) nu aparține unui PFA\.$/,
      (product, name) => `${product} is only for PFAs (authorised natural persons), and this CUI (${name}) does not belong to a PFA.`,
    ],
  ],
};

/** The identity photos' names in English, by their Romanian names (CONTEXT_NAMES). */
const PHOTO_NAMES: Record<string, string> = {
  [CONTEXT_NAMES['document-front']]: 'the front of the ID card',
  [CONTEXT_NAMES['document-back']]: 'the back of the ID card',
  [CONTEXT_NAMES.face]: 'the selfie',
};
function photoName(romanian: string): string {
  return PHOTO_NAMES[romanian] ?? romanian;
}
