/**
 * The 42 counties of Romania with their official numbers (the SIRUTA `JUD` code, also the county
 * digits of a CNP: 01–39 alphabetically, 40 București, 51 Călărași, 52 Giurgiu) and vehicle codes.
 * The number is the county's id in the API (`county_id`).
 */
export const COUNTIES: ReadonlyArray<{ id: number; code: string; name: string }> = [
  { id: 1, code: 'AB', name: 'Alba' },
  { id: 2, code: 'AR', name: 'Arad' },
  { id: 3, code: 'AG', name: 'Argeș' },
  { id: 4, code: 'BC', name: 'Bacău' },
  { id: 5, code: 'BH', name: 'Bihor' },
  { id: 6, code: 'BN', name: 'Bistrița-Năsăud' },
  { id: 7, code: 'BT', name: 'Botoșani' },
  { id: 8, code: 'BV', name: 'Brașov' },
  { id: 9, code: 'BR', name: 'Brăila' },
  { id: 10, code: 'BZ', name: 'Buzău' },
  { id: 11, code: 'CS', name: 'Caraș-Severin' },
  { id: 12, code: 'CJ', name: 'Cluj' },
  { id: 13, code: 'CT', name: 'Constanța' },
  { id: 14, code: 'CV', name: 'Covasna' },
  { id: 15, code: 'DB', name: 'Dâmbovița' },
  { id: 16, code: 'DJ', name: 'Dolj' },
  { id: 17, code: 'GL', name: 'Galați' },
  { id: 18, code: 'GJ', name: 'Gorj' },
  { id: 19, code: 'HR', name: 'Harghita' },
  { id: 20, code: 'HD', name: 'Hunedoara' },
  { id: 21, code: 'IL', name: 'Ialomița' },
  { id: 22, code: 'IS', name: 'Iași' },
  { id: 23, code: 'IF', name: 'Ilfov' },
  { id: 24, code: 'MM', name: 'Maramureș' },
  { id: 25, code: 'MH', name: 'Mehedinți' },
  { id: 26, code: 'MS', name: 'Mureș' },
  { id: 27, code: 'NT', name: 'Neamț' },
  { id: 28, code: 'OT', name: 'Olt' },
  { id: 29, code: 'PH', name: 'Prahova' },
  { id: 30, code: 'SM', name: 'Satu Mare' },
  { id: 31, code: 'SJ', name: 'Sălaj' },
  { id: 32, code: 'SB', name: 'Sibiu' },
  { id: 33, code: 'SV', name: 'Suceava' },
  { id: 34, code: 'TR', name: 'Teleorman' },
  { id: 35, code: 'TM', name: 'Timiș' },
  { id: 36, code: 'TL', name: 'Tulcea' },
  { id: 37, code: 'VS', name: 'Vaslui' },
  { id: 38, code: 'VL', name: 'Vâlcea' },
  { id: 39, code: 'VN', name: 'Vrancea' },
  { id: 40, code: 'B', name: 'București' },
  { id: 51, code: 'CL', name: 'Călărași' },
  { id: 52, code: 'GR', name: 'Giurgiu' },
];

export function countyByCode(code: string): { id: number; code: string; name: string } | undefined {
  return COUNTIES.find((c) => c.code === code);
}

/** Lower-case, without diacritics: how names are searched ("brasov" finds "Brașov"). */
export function searchKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

/** What a village's municipality, town or commune is called in an address ("comuna Albac"). */
const PARENT_WORD: Readonly<Record<string, string>> = { comuna: 'comuna', oras: 'orașul', municipiu: 'municipiul' };

/**
 * How a locality is written in an address (issue 31): a municipality, town, commune or sector by its
 * name; a village or component locality with its municipality, town or commune, as identity cards
 * and the trade register write it: "Rogoz, comuna Albac", "Bărăbanț, municipiul Alba Iulia".
 */
export function localityLabel(name: string, parent?: { name: string; kind: string } | null): string {
  if (!parent) return name;
  return `${name}, ${PARENT_WORD[parent.kind] ?? parent.kind} ${parent.name}`;
}
