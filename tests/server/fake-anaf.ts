import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAnafCall {
  method: string;
  path: string;
  contentType: string | undefined;
  /** The parsed JSON body (ANAF expects `[{ cui: number, data: "YYYY-MM-DD" }]`). */
  body: unknown;
  /** Date.now() when the request arrived. */
  receivedAt: number;
}

/** `found[]` entry of ANAF's v9 answer: `date_generale` plus the registered office and fiscal domicile. */
export interface FakeAnafCompany {
  date_generale: Record<string, unknown>;
  adresa_sediu_social?: Record<string, unknown>;
  adresa_domiciliu_fiscal?: Record<string, unknown>;
}

/** A sole proprietorship as ANAF v9 describes one: `forma_juridica` empty, the form in the name, an F… ONRC number. */
export function anafPfa(cui: number, name = 'POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ'): FakeAnafCompany {
  return {
    date_generale: {
      cui,
      data: '2026-11-23',
      denumire: name,
      adresa: 'JUD. CLUJ, MUN. CLUJ-NAPOCA, STR. MEMORANDUMULUI, NR.12, AP.4',
      nrRegCom: 'F12/345/2020',
      telefon: '',
      fax: '',
      codPostal: '400114',
      act: '',
      stare_inregistrare: 'INREGISTRAT din data 14.02.2020',
      data_inregistrare: '2020-02-14',
      cod_CAEN: '6201',
      iban: '',
      statusRO_e_Factura: false,
      organFiscalCompetent: 'Administraţia Judeţeană a Finanţelor Publice Cluj',
      forma_de_proprietate: '',
      forma_organizare: '',
      forma_juridica: '',
    },
    adresa_sediu_social: {
      sdenumire_Strada: '',
      snumar_Strada: '',
      sdenumire_Localitate: '',
      sdenumire_Judet: '',
      stara: '',
      sdetalii_Adresa: '',
      scod_Postal: '',
    },
    adresa_domiciliu_fiscal: {
      ddenumire_Strada: 'Str. Memorandumului',
      dnumar_Strada: '12',
      ddenumire_Localitate: 'Mun. Cluj-Napoca',
      dcod_Localitate: '54975',
      ddenumire_Judet: 'CLUJ',
      dcod_Judet: '12',
      dcod_JudetAuto: 'CJ',
      dtara: 'România',
      ddetalii_Adresa: 'AP.4',
      dcod_Postal: '400114',
    },
  };
}

/** A limited-liability company as ANAF v9 describes one. */
export function anafSrl(cui: number, name = 'ALFA CONTABIL SOFT SRL'): FakeAnafCompany {
  return {
    date_generale: {
      cui,
      data: '2026-11-23',
      denumire: name,
      adresa: 'MUNICIPIUL BUCUREŞTI, SECTOR 1, CALEA VICTORIEI, NR.155, ET.3',
      nrRegCom: 'J40/5521/2017',
      stare_inregistrare: 'INREGISTRAT din data 03.04.2017',
      forma_de_proprietate: 'PROPR.PRIVATA-CAPITAL PRIVAT AUTOHTON',
      forma_organizare: 'PERSOANA JURIDICA',
      forma_juridica: 'SOCIETATE COMERCIALĂ CU RĂSPUNDERE LIMITATĂ',
    },
    adresa_sediu_social: {
      sdenumire_Strada: 'Calea Victoriei',
      snumar_Strada: '155',
      sdenumire_Localitate: 'Sector 1 Mun. Bucureşti',
      sdenumire_Judet: 'MUNICIPIUL BUCUREŞTI',
      stara: 'România',
      sdetalii_Adresa: 'ET.3',
      scod_Postal: '010073',
    },
  };
}

/**
 * A local stand-in for ANAF's public web service on 127.0.0.1 (`ANAF_API_URL` points at it):
 * `POST /api/PlatitorTvaRest/v9/tva` with `[{ cui, data }]` answers `{ cod, message, found, notFound }`
 * like ANAF v9, from the companies the test adds. It records every call with the time it arrived,
 * and can answer with an error status, an answer that is not JSON, or late.
 */
export class FakeAnaf {
  readonly calls: FakeAnafCall[] = [];
  readonly companies = new Map<number, FakeAnafCompany>();
  /** The next N calls answer this HTTP status (an outage). */
  failNext = 0;
  failStatus = 503;
  /** The next N calls answer a body that is not JSON (ANAF's maintenance page). */
  garbageNext = 0;
  /** Every answer waits this long. */
  delayMs = 0;
  private server: http.Server | null = null;

  get url(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  add(...companies: FakeAnafCompany[]): this {
    for (const c of companies) this.companies.set(Number(c.date_generale.cui), c);
    return this;
  }

  /** Calls for one CUI. */
  callsFor(cui: number): FakeAnafCall[] {
    return this.calls.filter((c) => Array.isArray(c.body) && c.body.some((q: { cui?: unknown }) => q.cui === cui));
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        const receivedAt = Date.now();
        let body: unknown = null;
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
        const path = (req.url ?? '').split('?')[0];
        this.calls.push({ method: req.method ?? '', path, contentType: req.headers['content-type'], body, receivedAt });
        const answer = (status: number, text: string, type = 'application/json') => {
          setTimeout(() => {
            if (res.destroyed) return;
            res.statusCode = status;
            res.setHeader('content-type', type);
            res.end(text);
          }, this.delayMs);
        };
        if (req.method !== 'POST' || path !== '/api/PlatitorTvaRest/v9/tva') {
          answer(404, JSON.stringify({ cod: 404, message: 'NOT FOUND' }));
          return;
        }
        if (this.failNext > 0) {
          this.failNext--;
          answer(this.failStatus, '<html><body>Service Unavailable</body></html>', 'text/html');
          return;
        }
        if (this.garbageNext > 0) {
          this.garbageNext--;
          answer(200, '<html><body>Serviciul este in mentenanta</body></html>', 'text/html');
          return;
        }
        // ANAF refuses a body that is not a list of { cui: number, data: "YYYY-MM-DD" }.
        const valid =
          Array.isArray(body) &&
          body.length > 0 &&
          body.every((q: { cui?: unknown; data?: unknown }) => typeof q?.cui === 'number' && typeof q.data === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(q.data));
        if (!valid || !String(req.headers['content-type'] ?? '').startsWith('application/json')) {
          answer(400, JSON.stringify({ cod: 400, message: 'Request invalid' }));
          return;
        }
        const asked = body as Array<{ cui: number; data: string }>;
        const found = asked.filter((q) => this.companies.has(q.cui)).map((q) => ({ ...this.companies.get(q.cui)!, date_generale: { ...this.companies.get(q.cui)!.date_generale, data: q.data } }));
        const notFound = asked.filter((q) => !this.companies.has(q.cui)).map((q) => q.cui);
        answer(200, JSON.stringify({ cod: 200, message: 'SUCCESS', found, notFound }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
