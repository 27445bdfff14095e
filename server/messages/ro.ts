/**
 * The server's Romanian texts (the default language; spec copy): the error envelope, the 422 field
 * messages and the mails. English is ./en.ts, with the same shape (the type checker refuses a missing
 * text). A message thrown elsewhere in server/ as a Romanian literal is translated through
 * `en.byRomanian` (./en.ts); see ./index.ts.
 */
export interface PhasesText {
  intro: string;
  then: string;
  unit: string;
  interval: 'month' | 'year';
  /** Intervals of the introductory phase. */
  n: number;
}

/** Romanian's plural forms (Intl): one (1), few (0, 2–19, …), other (20 and up, with "de"). */
const ROMANIAN_PLURAL = new Intl.PluralRules('ro');

export const ro = {
  locale: 'ro-RO' as string,
  languageSaved: 'Limba a fost salvată.' as string,
  envelope: {
    invalid: 'Datele trimise nu sunt valide.',
    generic: 'A apărut o eroare. Te rugăm să încerci din nou.',
    unauthorized: 'Sesiunea a expirat. Te rugăm să te autentifici din nou.',
    forbidden: 'Nu ai acces la această resursă.',
    notFound: 'Resursa nu a fost găsită.',
    request: {
      400: 'Cererea nu poate fi citită.',
      413: 'Datele trimise sunt prea mari.',
      415: 'Tipul datelor trimise nu este acceptat.',
    } as Record<number, string>,
  },
  /** Per JSON Schema keyword (ajv), for any field. */
  validation: {
    required: (): string => 'Câmpul este obligatoriu.',
    format: (p: { format?: unknown }): string => (p.format === 'email' ? 'Adresa de e-mail nu este validă.' : 'Formatul nu este valid.'),
    minLength: (p: { limit?: unknown }): string => (p.limit === 1 ? 'Câmpul este obligatoriu.' : `Câmpul trebuie să aibă cel puțin ${String(p.limit)} caractere.`),
    maxLength: (p: { limit?: unknown }): string => `Câmpul poate avea cel mult ${String(p.limit)} caractere.`,
    pattern: (): string => 'Formatul nu este valid.',
    type: (): string => 'Valoarea nu este validă.',
    enum: (): string => 'Valoarea nu este validă.',
    const: (): string => 'Valoarea nu este validă.',
    minimum: (p: { limit?: unknown }): string => `Valoarea trebuie să fie cel puțin ${String(p.limit)}.`,
    maximum: (p: { limit?: unknown }): string => `Valoarea poate fi cel mult ${String(p.limit)}.`,
    maxItems: (p: { limit?: unknown }): string => `Sunt permise cel mult ${String(p.limit)} elemente.`,
    additionalProperties: (): string => 'Câmp necunoscut.',
    other: (): string => 'Valoarea nu este validă.',
  },
  /** Messages that read better than the keyword's for a given field (its last path segment) and keyword. */
  fields: {
    email: { required: 'Adresa de e-mail este obligatorie.', minLength: 'Adresa de e-mail este obligatorie.' },
    phone: {
      required: 'Numărul de telefon este obligatoriu.',
      pattern: 'Numărul de telefon trebuie să aibă formatul 07xxxxxxxx.',
    },
    password: { required: 'Parola este obligatorie.', minLength: 'Parola trebuie să aibă minim 6 caractere.' },
    password_confirmation: { required: 'Confirmă parola.' },
    marketing_accepted: {
      required: 'Trebuie să accepți termenii și condițiile.',
      const: 'Trebuie să accepți termenii și condițiile.',
      type: 'Trebuie să accepți termenii și condițiile.',
    },
    partner_id: { required: 'Alege tipul de abonament.', type: 'Alege tipul de abonament.' },
    registration_type: { required: 'Alege tipul de înregistrare.', enum: 'Alege tipul de înregistrare.' },
    callbackUrl: { required: 'Adresa de întoarcere lipsește.' },
    county_id: { required: 'Alege județul.', type: 'Alege județul.', minimum: 'Alege județul.' },
    city_id: { required: 'Alege localitatea.', type: 'Alege localitatea.', minimum: 'Alege localitatea.' },
    postal_code: { pattern: 'Codul poștal are 6 cifre.' },
    context: { enum: 'Tipul fotografiei nu este cunoscut.' },
    activity_details: {
      required: 'Descrie pe scurt activitatea pe care o vei avea.',
      pattern: 'Descrie pe scurt activitatea pe care o vei avea.',
      type: 'Descrie pe scurt activitatea pe care o vei avea.',
    },
  } as Record<string, Record<string, string>>,
  mail: {
    layout: {
      unsubscribeQuestion: 'Nu mai vrei notificări?' as string,
      unsubscribe: 'Dezabonare' as string,
      copyAddress: 'Dacă butonul nu funcționează, copiază adresa:' as string,
    },
    verify: {
      subject: (product: string): string => `Confirmă adresa de e-mail pentru ${product}`,
      lines: (product: string): string[] => [`Bine ai venit în ${product}!`, 'Te rugăm să îți confirmi adresa de e-mail apăsând pe butonul de mai jos.'],
      button: 'Confirmă adresa de e-mail' as string,
      textLink: 'Confirmă adresa' as string,
    },
    reset: {
      subject: (product: string): string => `Resetează parola contului ${product}`,
      lines: (ttlMinutes: number): string[] => [
        'Am primit o cerere de resetare a parolei pentru contul tău.',
        `Linkul este valabil ${ttlMinutes} de minute și poate fi folosit o singură dată. Dacă nu ai cerut resetarea, ignoră acest mesaj.`,
      ],
      button: 'Resetează parola' as string,
      textLink: 'Resetează parola' as string,
    },
    /** An operator asks for missing documents (issue 18): the operator's message goes between the lines. */
    accountErased: {
      subject: (product: string): string => `Contul tău ${product} a fost șters`,
      intro: {
        applicant: 'Contul tău și datele lui au fost șterse, așa cum ai cerut.' as string,
        operator: 'Contul tău și datele lui au fost șterse, în urma cererii tale scrise.' as string,
        retention: (days: number): string =>
          `Contul tău și datele lui au fost șterse: cererea ta nu era finalizată și nu ai mai intrat în cont de peste ${days} de zile, așa cum te-am anunțat pe e-mail. Nu păstrăm datele personale mai mult decât este nevoie.`,
      },
      kept: 'Păstrăm doar ce ne obligă legea, separat și numai cât timp cere legea:' as string,
      nothingKept: 'Nu am păstrat nimic din datele tale.' as string,
      outro: 'Nu mai este nevoie să faci nimic. Dacă nu tu ai cerut ștergerea, scrie-ne la adresa de contact de pe site.' as string,
      keptPayment: (count: number, until: string): string => `evidența plăților (${count}), până la ${until}, conform Legii contabilității nr. 82/1991;`,
      keptContract: (until: string): string => `contractul de asistență juridică semnat, până la ${until}, cât timp ne leagă obligațiile din el;`,
      keptTradeRegister: 'dosarul depus deja la Registrul Comerțului rămâne acolo, în registrul public, conform legii.' as string,
      button: 'Politica de confidențialitate' as string,
      textLink: 'Politica de confidențialitate' as string,
    },
    /** The retention job's warning before it erases an unfinished application (issue 32, server/privacy/retention.ts). */
    retentionWarning: {
      subject: (product: string): string => `Contul tău ${product} va fi șters în curând`,
      lines: (product: string, date: string): string[] => [
        `Nu ai mai intrat de mult în contul tău ${product}, iar cererea ta nu este finalizată.`,
        `Ca să nu păstrăm datele tale personale mai mult decât este nevoie, vom șterge contul și toate datele cererii după ${date}.`,
        'Dacă vrei să le păstrezi, intră în cont înainte de această dată: cererea te așteaptă unde ai lăsat-o.',
      ],
      data: 'Poți vedea, descărca sau șterge oricând datele tale din pagina „Datele tale”:' as string,
      button: 'Intră în cont' as string,
      textLink: 'Intră în cont' as string,
    },
    missingDocuments: {
      subject: (product: string): string => `Documente lipsă pentru dosarul tău ${product}`,
      intro: 'Pentru a continua dosarul tău avem nevoie de câteva documente în plus:' as string,
      outro: 'Te rugăm să intri în cont și să le trimiți.' as string,
      textLink: 'Dosarul tău' as string,
      button: 'Deschide dosarul' as string,
    },
    receipt: {
      subject: (product: string): string => `Plata a fost primită – ${product}`,
      thanks: 'Plata a fost primită. Îți mulțumim!' as string,
      amount: 'Suma' as string,
      date: 'Data' as string,
      item: 'Pentru' as string,
      terms: 'Abonament' as string,
      reference: 'Referința plății' as string,
      textLink: 'Statusul dosarului' as string,
      button: 'Vezi statusul dosarului' as string,
      /** "Abonament Ghișeu – iCredit" */
      subscription: (product: string, partner: string): string => `Abonament ${product} – ${partner}`,
      /** "130 lei/lună în primele 3 luni, apoi 72 lei/lună" */
      phases: ({ intro, then, unit, interval, n }: PhasesText): string => {
        const per = interval === 'year' ? 'an' : 'lună';
        // Romanian's plural forms: 1, then 2–19 ("3 luni"), then 20 and up with "de" ("24 de luni").
        const form = ROMANIAN_PLURAL.select(n);
        const de = form === 'other' ? 'de ' : '';
        const span = interval === 'year' ? (form === 'one' ? 'în primul an' : `în primii ${n} ${de}ani`) : form === 'one' ? 'în prima lună' : `în primele ${n} ${de}luni`;
        return `${intro} ${unit}/${per} ${span}, apoi ${then} ${unit}/${per}`;
      },
    },
  },
  /** Romanian literals thrown elsewhere (`new HttpError(…, 'text')`): the text itself is the Romanian. */
  byRomanian: {} as Record<string, string>,
  /**
   * Romanian texts with a varying part (a timeline type, a photo, a size, a company), thrown elsewhere:
   * the pattern of the Romanian and the text in this language, built from the pattern's groups.
   */
  byPattern: [] as [RegExp, (...parts: string[]) => string][],
};

export type Messages = typeof ro;
