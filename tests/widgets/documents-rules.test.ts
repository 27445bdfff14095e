import { describe, expect, it } from 'vitest';
import { hasLicenceBlock, licenceChoices, licenceStatus } from '../../widgets/documents/documents-rules';
import { documentsValue, type DocumentsState } from '../../widgets/documents/useDocumentsValue';

const base: DocumentsState = { later: false, status: null, licenceBlock: false, savedDiplomas: 0, savedLicences: 0, files: [], driverLicenseFiles: [] };

describe('documents step rules (spec 001 §4)', () => {
  it('an answer fixed by the flow (the credit partner: 1, later) hides the block and is always sent', () => {
    expect(hasLicenceBlock({ licence: 'credit-certificate', licenceStatus: 1 })).toBe(false);
    expect(licenceStatus({ licence: 'credit-certificate', licenceStatus: 1 }, 2)).toBe(1);
    expect(hasLicenceBlock({ licence: 'credit-certificate' })).toBe(true);
    expect(licenceStatus({ licence: 'credit-certificate' }, 2)).toBe(2);
  });

  it('"no licence" (0) only where the flow offers it (couriers); without a licence option nothing is sent', () => {
    expect(licenceChoices({ noLicenceChoice: true })).toEqual([2, 1, 0]);
    expect(licenceChoices({})).toEqual([2, 1]);
    expect(licenceStatus({}, 2)).toBeNull();
    expect(licenceStatus({ licence: 'taxi' }, 'x')).toBeNull();
  });

  it('"next" needs a diploma (saved or chosen) or "send later", and an answered licence with a file for "upload now"', () => {
    expect(documentsValue(base)).toMatchObject({ diplomas_ready: false, licence_ready: true });
    expect(documentsValue({ ...base, later: true })).toMatchObject({ diplomas_ready: true, send_diploma_later: true });
    expect(documentsValue({ ...base, savedDiplomas: 1 }).diplomas_ready).toBe(true);
    expect(documentsValue({ ...base, files: ['diploma.pdf'] }).diplomas_ready).toBe(true);
    const courier = { ...base, licenceBlock: true };
    expect(documentsValue(courier).licence_ready).toBe(false);
    expect(documentsValue({ ...courier, status: 0 }).licence_ready).toBe(true);
    expect(documentsValue({ ...courier, status: 2 }).licence_ready).toBe(false);
    expect(documentsValue({ ...courier, status: 2, driverLicenseFiles: ['permis.pdf'] })).toMatchObject({ licence_ready: true, driver_license_status: 2 });
  });
});
